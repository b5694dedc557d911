/// \file
/// The cuda plugin's private declarations: the plugin ABI (plugins/abi/tegula_plugin.h) over
/// the CUDA driver API (DriverApi.h, loaded with dlopen) and NVRTC (Nvrtc.h), devices named
/// "cuda:<n>". Handles own driver objects: a device holds the device's primary context, a
/// queue a non-blocking stream, an executable a module and its one kernel.
///
/// Nothing here lets a C++ exception or an abort reach the host: every entry point runs its
/// body through guarded(), and driver failures become tg_error objects with the driver's
/// error name.
#pragma once

#include <cstdint>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "plugins/abi/tegula_plugin.h"
#include "plugins/cuda/Blob.h"
#include "plugins/cuda/DriverApi.h"
#include "targets/Target.h"
#include "plugins/support/EntryTable.h"
#include "plugins/support/LaunchCheck.h"
#include "plugins/support/PluginErrors.h"

namespace tegula::cuda {

/// What the plugin learns about one device at init.
struct DeviceInfo {
  CUdevice device = 0;
  std::string name;
  std::string target;  ///< the built-in description it uses ("sm_90a")
  std::string arch;    ///< what NVRTC compiles for ("sm_90a", "sm_86", ...)
  int cc_major = 0, cc_minor = 0;
  uint64_t memory = 0;
  uint32_t sms = 0;
  int smem_optin = 0;
  int l2 = 0;
};

/// The target description and NVRTC architecture for a compute capability.
void target_for_capability(int major, int minor, std::string* target, std::string* arch);

}  // namespace tegula::cuda

struct tg_plugin {
  uint32_t abi_version = 0;
  void (*log)(void* log_user, tg_log_level level, const char* message) = nullptr;
  void* log_user = nullptr;
  const tegula::cuda::Driver* driver = nullptr;  ///< null: no usable driver, 0 devices
  std::string no_driver;                        ///< why, when driver is null
  std::vector<tegula::cuda::DeviceInfo> infos;
  std::string driver_version;   ///< "13.0"
  std::string toolkit_version;  ///< NVRTC's version
  std::set<tg_device*> devices;
};

struct tg_device {
  tg_plugin* plugin = nullptr;
  uint32_t index = 0;
  tegula::cuda::DeviceInfo info;
  tegula::cuda::CUcontext context = nullptr;
  tegula::TargetDescription target;
  std::set<tg_queue*> queues;
  std::set<tg_buffer*> buffers;
  std::mutex executables_mu;  ///< executable_load runs on several threads (TG_CONCURRENT_COMPILE)
  std::set<tg_executable*> executables;
  std::set<tg_event*> events;
};

struct tg_queue {
  tg_device* device = nullptr;
  tegula::cuda::CUstream stream = nullptr;
};

struct tg_buffer {
  tg_device* device = nullptr;
  tegula::cuda::CUdeviceptr ptr = 0;  ///< 0 when size is 0
  uint64_t size = 0;
};

struct tg_executable {
  tg_device* device = nullptr;
  tegula::cuda::CUmodule module = nullptr;
  tegula::cuda::CUfunction function = nullptr;
  tegula::cuda::KernelInfo info;
  tegula::plugin::LaunchSignature signature;  ///< from `info`: what validate_launch checks
  /// The tensor maps of the last launch and the addresses and dimensions they encode.
  std::vector<tegula::cuda::CUtensorMap> maps;
  std::vector<std::vector<uint64_t>> map_keys;
};

struct tg_event {
  tg_device* device = nullptr;
  tegula::cuda::CUevent event = nullptr;
  bool recorded = false;
};

namespace tegula::cuda {

// Error objects, the exception guard and range checks (plugins/support/PluginErrors.h).
using plugin::error_code;
using plugin::error_destroy;
using plugin::error_message;
using plugin::guarded_void;
using plugin::make_error;
using plugin::range_ok;
using plugin::status_code_for;
inline tg_error* from_status(const Status& status, const char* context) {
  return plugin::error_from_status("cuda", status, context);
}
template <typename F>
tg_error* guarded(const char* entry, F&& body) {
  return plugin::guarded("cuda", entry, std::forward<F>(body));
}

/// A driver failure: "cuda: <what>: CUDA_ERROR_X: text".
tg_error* driver_error(const Driver& d, CUresult r, const std::string& what);
/// Make the device's context current on this thread (driver calls need one).
tg_error* activate(tg_device* device);

// Entry points, one per entry of the ABI list but the error entries (the SDK's); Api.cpp
// puts them behind guarded thunks in the table (plugins/support/EntryTable.h).
TG_SDK_DECLARE_ENTRIES()

/// What validate_launch checks a launch of this kernel against: the argument kinds, tensor
/// sizes, lower.assume and the alignment the generated code needs. The executable keeps no
/// IR, so no names and no grid expressions.
plugin::LaunchSignature launch_signature_of(const KernelInfo& info);

/// Free everything a device made (shutdown and device_close).
void free_device(tg_device* device);

}  // namespace tegula::cuda
