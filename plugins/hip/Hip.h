/// \file
/// The hip plugin's private declarations: the plugin ABI (plugins/abi/tegula_plugin.h) over
/// the HIP runtime (HipApi.h, loaded with dlopen), devices named "hip:<n>". Handles own
/// runtime objects: a queue a non-blocking stream, an executable a module and its kernel.
/// Every entry runs behind the SDK's guarded thunks (Api.cpp), and runtime failures become
/// error objects with the runtime's error name.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/IR.h"
#include "plugins/abi/tegula_plugin.h"
#include "plugins/hip/Compile.h"
#include "plugins/hip/HipApi.h"
#include "plugins/support/EntryTable.h"
#include "plugins/support/LaunchCheck.h"
#include "plugins/support/PluginErrors.h"
#include "targets/Target.h"

namespace tegula::hip {

/// What the plugin learns about one device at init, attribute by attribute.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string target;  ///< the built-in description ("gfx942")
  int gfx_major = 0, gfx_minor = 0;
  uint64_t memory = 0;
  uint32_t compute_units = 0;
  int wave = 0;
  int lds = 0;
};

}  // namespace tegula::hip

struct tg_plugin {
  void (*log)(void* log_user, tg_log_level level, const char* message) = nullptr;
  void* log_user = nullptr;
  const tegula::hip::Runtime* runtime = nullptr;  ///< null: no usable runtime, 0 devices
  std::vector<tegula::hip::DeviceInfo> infos;
  std::string runtime_version;
  std::set<tg_device*> devices;
};

struct tg_device {
  tg_plugin* plugin = nullptr;
  uint32_t index = 0;
  tegula::hip::DeviceInfo info;
  tegula::TargetDescription target;
  std::set<tg_queue*> queues;
  std::set<tg_buffer*> buffers;
  std::set<tg_executable*> executables;
  std::set<tg_event*> events;
};

struct tg_queue {
  tg_device* device = nullptr;
  tegula::hip::hipStream_t stream = nullptr;
};

struct tg_buffer {
  tg_device* device = nullptr;
  void* ptr = nullptr;  ///< null when size is 0
  uint64_t size = 0;
};

struct tg_executable {
  tg_device* device = nullptr;
  tegula::hip::hipModule_t module = nullptr;
  tegula::hip::hipFunction_t function = nullptr;
  tegula::hip::Executable exe;
  tegula::ir::Kernel kernel;                  ///< the lowered kernel read back (grid expressions)
  tegula::plugin::LaunchSignature signature;  ///< what validate_launch checks
};

struct tg_event {
  tg_device* device = nullptr;
  tegula::hip::hipEvent_t event = nullptr;
  bool recorded = false;
};

namespace tegula::hip {

using plugin::guarded_void;
using plugin::make_error;
using plugin::range_ok;
inline tg_error* from_status(const Status& status, const char* context) {
  return plugin::error_from_status("hip", status, context);
}
template <typename F>
tg_error* guarded(const char* entry, F&& body) {
  return plugin::guarded("hip", entry, std::forward<F>(body));
}

/// A runtime failure: "hip: <what>: hipErrorX: text".
tg_error* runtime_error(const Runtime& r, hipError_t e, const std::string& what);
/// Make the device current on this thread (HIP's calls act on the current device).
tg_error* activate(tg_device* device);

TG_SDK_DECLARE_ENTRIES()

/// Free everything a device made (shutdown and device_close).
void free_device(tg_device* device);

}  // namespace tegula::hip
