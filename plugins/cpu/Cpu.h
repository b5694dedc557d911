/// \file
/// The CPU plugin's private declarations: the objects behind the ABI handles and the entry
/// points in table order.
///
/// - Devices, queues, buffers, transfers and events are the SDK's synchronous host device
///   (plugins/support/HostDevice.h): host memory, 64-byte aligned, transfers finished when
///   their call returns.
/// - Launches are synchronous: launch() runs every block of the grid on the plugin's thread
///   pool (the calling thread takes part) and returns when they are done, so
///   queue_synchronize has nothing left to wait for and events complete when recorded.
///   Launches from different queues at once take turns on the pool.
/// - An executable is host object code (see Blob.h); loading links it into the plugin's ORC
///   JIT without compiling anything.
///
/// Nothing here may let a C++ exception or an abort reach the host: entry points run their
/// bodies through guarded().
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <utility>

#include "core/Status.h"
#include "ir/IR.h"
#include "plugins/abi/tegula_plugin.h"
#include "plugins/cpu/CpuAbi.h"
#include "plugins/cpu/Host.h"
#include "plugins/support/EntryTable.h"
#include "plugins/support/HostDevice.h"
#include "plugins/support/LaunchCheck.h"
#include "plugins/support/PluginErrors.h"
#include "targets/Target.h"

namespace tegula::cpu {
class Jit;
class ThreadPool;
struct JitHandle;
}  // namespace tegula::cpu

struct tg_plugin {
  uint32_t abi_version = 0;
  void (*log)(void* log_user, tg_log_level level, const char* message) = nullptr;
  void* log_user = nullptr;
  tegula::cpu::HostCpu host;
  std::string target_json;
  tegula::TargetDescription target;  ///< target_json parsed: what compile reads kernels against
  std::string target_hash;  ///< target_hash() of target_json: what lower.target_hash must say
  std::string device_name;
  std::unique_ptr<tegula::cpu::ThreadPool> pool;
  std::mutex jit_mu;  ///< guards making `jit`: executable_load runs on several threads at once
  std::unique_ptr<tegula::cpu::Jit> jit;  ///< made on first use
  std::set<tg_device*> devices;
};

struct tg_executable {
  tg_device* device = nullptr;
  tegula::ir::Kernel kernel;  ///< the lowered kernel: signature, grid and shapes
  tegula::plugin::LaunchSignature signature;  ///< of `kernel`, with its lowering's assumptions
  tegula::cpu::TgCpuEntry entry = nullptr;
  uint64_t arena_bytes = 0;
  std::unique_ptr<tegula::cpu::JitHandle> code;
};

namespace tegula::cpu {

// Error objects, the exception guard and range checks (plugins/support/PluginErrors.h).
using plugin::error_code;
using plugin::error_destroy;
using plugin::error_message;
using plugin::guarded_void;
using plugin::make_error;
using plugin::range_ok;
using plugin::status_code_for;
inline tg_error* from_status(const Status& status, const char* context) {
  return plugin::error_from_status("cpu", status, context);
}
template <typename F>
tg_error* guarded(const char* entry, F&& body) {
  return plugin::guarded("cpu", entry, std::forward<F>(body));
}

/// Free an executable's code and memory (the device's set is the caller's business).
void destroy_executable(tg_executable* executable);
void log(tg_plugin* plugin, tg_log_level level, const std::string& message);

// Entry points, one per entry of the ABI list but the error entries (the SDK's); Api.cpp
// puts them behind guarded thunks in the table (plugins/support/EntryTable.h).
TG_SDK_DECLARE_ENTRIES()

}  // namespace tegula::cpu
