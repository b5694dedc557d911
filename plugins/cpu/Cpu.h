/// \file
/// The CPU plugin's private declarations: the objects behind the ABI handles and the entry
/// points in table order.
///
/// - Memory is host memory (64-byte aligned). Transfers are memcpy and finish before their
///   call returns.
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
  std::unique_ptr<tegula::cpu::Jit> jit;  ///< made on first use
  std::set<tg_device*> devices;
};

struct tg_device {
  tg_plugin* plugin = nullptr;
  std::mutex mu;  ///< guards the sets: queues may be used from several threads at once
  std::set<tg_queue*> queues;
  std::set<tg_buffer*> buffers;
  std::set<tg_executable*> executables;
  std::set<tg_event*> events;
};

struct tg_queue {
  tg_device* device = nullptr;
};

struct tg_buffer {
  tg_device* device = nullptr;
  uint8_t* data = nullptr;  ///< 64-byte aligned; nullptr when size is 0
  uint64_t size = 0;
};

struct tg_executable {
  tg_device* device = nullptr;
  tegula::ir::Kernel kernel;  ///< the lowered kernel: signature, grid and shapes
  tegula::cpu::TgCpuEntry entry = nullptr;
  uint64_t arena_bytes = 0;
  std::unique_ptr<tegula::cpu::JitHandle> code;
};

struct tg_event {
  tg_device* device = nullptr;
  bool recorded = false;
  std::chrono::steady_clock::time_point time;
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

/// The buffer is one this device made and still holds.
bool owns(tg_device* device, const tg_buffer* buffer);
/// Free an executable's code and memory (the device's set is the caller's business).
void destroy_executable(tg_executable* executable);
void log(tg_plugin* plugin, tg_log_level level, const std::string& message);

// Entry points, in table order (Api.cpp).
tg_error* get_info(tg_plugin_info* out_info);
tg_error* init(const tg_host_info* host, tg_plugin** out_plugin);
void shutdown(tg_plugin* plugin);
tg_error* device_count(tg_plugin* plugin, uint32_t* out_count);
tg_error* device_properties(tg_plugin* plugin, uint32_t index, tg_device_properties* out);
tg_error* device_target(tg_plugin* plugin, uint32_t index, tg_target_description* out);
tg_error* device_open(tg_plugin* plugin, uint32_t index, tg_device** out_device);
void device_close(tg_device* device);
tg_error* queue_create(tg_device* device, tg_queue** out_queue);
void queue_destroy(tg_queue* queue);
tg_error* queue_synchronize(tg_queue* queue);
tg_error* buffer_alloc(tg_device* device, uint64_t size, tg_buffer** out_buffer);
void buffer_free(tg_buffer* buffer);
tg_error* copy_h2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, const void* src, uint64_t size);
tg_error* copy_d2h(tg_queue* queue, void* dst, tg_buffer* src, uint64_t src_offset, uint64_t size);
tg_error* copy_d2d(tg_queue* queue, tg_buffer* dst, uint64_t dst_offset, tg_buffer* src,
                   uint64_t src_offset, uint64_t size);
tg_error* buffer_fill(tg_queue* queue, tg_buffer* buffer, uint64_t offset, uint64_t size,
                      const void* pattern, uint32_t pattern_size);
tg_error* compile(tg_device* device, const tg_compile_request* request, tg_blob* out_blob);
void blob_release(tg_blob* blob);
tg_error* executable_load(tg_device* device, const void* data, size_t size, tg_executable** out);
void executable_free(tg_executable* executable);
tg_error* launch(tg_queue* queue, tg_executable* executable, const tg_launch_params* params);
tg_error* event_create(tg_device* device, tg_event** out_event);
void event_destroy(tg_event* event);
tg_error* event_record(tg_queue* queue, tg_event* event);
tg_error* event_synchronize(tg_event* event);
tg_error* event_elapsed_ms(tg_event* start, tg_event* end, double* out_ms);
tg_error* executable_describe(tg_plugin* plugin, const void* data, size_t size, tg_blob* out_text);

}  // namespace tegula::cpu
