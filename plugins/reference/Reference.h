/// \file
/// The reference plugin's private declarations: the reference interpreter (ir/Interpreter.h)
/// behind the plugin ABI, so every tool treats it as a device ("reference:0"). Devices,
/// buffers, queues and events are the SDK's synchronous host device (work is done when the
/// call returns, plugins/support/HostDevice.h), an executable
/// is the lowered IR text behind a small header, and launching interprets it.
///
/// Nothing here may let a C++ exception or an abort reach the host: every entry point runs
/// its body through guarded(), which turns an escaped exception into a tg_error.
#pragma once

// The plugin's name, and target features beyond its own (JSON, with a leading comma):
// runtime/tests builds a renamed copy, reference_specializing, whose description adds
// shape_specialization, to test the runtime's per-shape variants on a plugin every build has.
#ifndef TG_REFERENCE_NAME
#define TG_REFERENCE_NAME "reference"
#endif
#if defined(TG_REFERENCE_SHAPE_SPECIALIZATION)
#define TG_REFERENCE_EXTRA_FEATURES ", \"shape_specialization\""
#else
#define TG_REFERENCE_EXTRA_FEATURES ""
#endif

#include <chrono>
#include <cstdint>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <utility>

#include "ir/IR.h"
#include "plugins/abi/tegula_plugin.h"
#include "plugins/support/EntryTable.h"
#include "plugins/support/HostDevice.h"
#include "plugins/support/LaunchCheck.h"
#include "plugins/support/PluginErrors.h"

struct tg_plugin {
  uint32_t abi_version = 0;
  void (*log)(void* log_user, tg_log_level level, const char* message) = nullptr;
  void* log_user = nullptr;
  // Everything the instance made and the host has not freed yet, for shutdown().
  std::set<tg_device*> devices;
};

struct tg_executable {
  tg_device* device = nullptr;
  tegula::ir::Kernel kernel;
  tegula::plugin::LaunchSignature signature;  ///< of `kernel`, with its lowering's assumptions
};

namespace tegula::reference {

// Error objects, the exception guard and range checks (plugins/support/PluginErrors.h).
using plugin::error_code;
using plugin::error_destroy;
using plugin::error_message;
using plugin::guarded_void;
using plugin::make_error;
using plugin::range_ok;
using plugin::status_code_for;
inline tg_error* from_status(const Status& status, const char* context) {
  return plugin::error_from_status("reference", status, context);
}
template <typename F>
tg_error* guarded(const char* entry, F&& body) {
  return plugin::guarded("reference", entry, std::forward<F>(body));
}

/// The "reference" target description (JSON, tegula.target.v1).
const char* target_json();

// Entry points, one per entry of the ABI list but the error entries (the SDK's); Api.cpp
// puts them behind guarded thunks in the table (plugins/support/EntryTable.h).
TG_SDK_DECLARE_ENTRIES()

}  // namespace tegula::reference
