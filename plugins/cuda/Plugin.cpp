/// \file
/// Identity, lifecycle and devices. A machine without libcuda.so.1, or whose driver finds no
/// GPU, loads the plugin fine and reports 0 devices (the reason goes to the host's log).
#include "plugins/cuda/Cuda.h"
#include "plugins/support/PluginInfo.h"

#include <cstdint>
#include "plugins/cuda/Nvrtc.h"
#include "plugins/support/DeviceProperties.h"

#ifndef TEGULA_VERSION
#define TEGULA_VERSION "0.0.0"
#endif

namespace tegula::cuda {

void target_for_capability(int major, int minor, std::string* target, std::string* arch) {
  std::string cc = std::to_string(major) + std::to_string(minor);
  if (major == 9) {
    *target = "sm_90a";
    *arch = "sm_" + cc + "a";
  } else if (major == 10) {
    *target = "sm_100a";
    *arch = "sm_" + cc + "a";
  } else if (major == 8 && minor >= 9) {
    *target = "sm_89";
    *arch = "sm_" + cc;
  } else if (major == 8) {
    *target = "sm_80";
    *arch = "sm_" + cc;
  } else if (major > 10) {
    // Later consumer parts: the mma.sync-only description fits them.
    *target = "sm_89";
    *arch = "sm_" + cc;
  } else {
    *target = "";
    *arch = "";
  }
}

static void log_to(tg_plugin* p, tg_log_level level, const std::string& message) {
  if (p && p->log) p->log(p->log_user, level, ("cuda: " + message).c_str());
}

tg_error* activate(tg_device* device) {
  const Driver& d = *device->plugin->driver;
  CUresult r = d.cuCtxSetCurrent(device->context);
  return r == kCudaSuccess ? nullptr : driver_error(d, r, "cuCtxSetCurrent");
}

void free_device(tg_device* device) {
  const Driver& d = *device->plugin->driver;
  d.cuCtxSetCurrent(device->context);
  for (tg_executable* e : device->executables) {
    d.cuModuleUnload(e->module);
    delete e;
  }
  for (tg_event* e : device->events) {
    d.cuEventDestroy(e->event);
    delete e;
  }
  for (tg_queue* q : device->queues) {
    d.cuStreamSynchronize(q->stream);
    d.cuStreamDestroy(q->stream);
    delete q;
  }
  for (tg_buffer* b : device->buffers) {
    if (b->ptr) d.cuMemFree(b->ptr);
    delete b;
  }
  d.cuDevicePrimaryCtxRelease(device->info.device);
  delete device;
}

tg_error* get_info(tg_plugin_info* out_info) {
  if (!out_info || !plugin::plugin_info_fits(out_info))
    return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: get_info: bad tg_plugin_info");
  plugin::answer_plugin_info_size(out_info);
  out_info->next = nullptr;
  out_info->name = "cuda";
  out_info->vendor = "NVIDIA";
  // Part of compile-cache keys: the generated code changes with tegula.
  out_info->version = TEGULA_VERSION;
  out_info->description = "NVIDIA GPUs through the CUDA driver (dlopen'ed) and NVRTC: mma.sync, wgmma, tcgen05, cp.async, TMA";
  // NVRTC compiles programs on several threads at once; executable_load makes the context
  // current on its own thread and guards the executable list.
  plugin::set_concurrency(out_info, TG_CONCURRENT_COMPILE);
  return nullptr;
}

static void enumerate(tg_plugin* p) {
  std::string why;
  p->driver = load_driver(&why);
  if (!p->driver) {
    p->no_driver = why;
    log_to(p, TG_LOG_INFO, "no devices: " + why);
    return;
  }
  const Driver& d = *p->driver;
  p->driver_version = std::to_string(d.version / 1000) + "." + std::to_string((d.version % 1000) / 10);
  p->toolkit_version = nvrtc_version();
  int count = 0;
  CUresult r = d.cuDeviceGetCount(&count);
  if (r != kCudaSuccess) {
    p->no_driver = "cuDeviceGetCount: " + driver_error_text(d, r);
    log_to(p, TG_LOG_WARN, "no devices: " + p->no_driver);
    return;
  }
  for (int i = 0; i < count; ++i) {
    DeviceInfo info;
    if (d.cuDeviceGet(&info.device, i) != kCudaSuccess) continue;
    char name[256] = {0};
    if (d.cuDeviceGetName(name, sizeof name - 1, info.device) == kCudaSuccess) info.name = name;
    auto attr = [&](int a) {
      int v = 0;
      return d.cuDeviceGetAttribute(&v, a, info.device) == kCudaSuccess ? v : 0;
    };
    info.cc_major = attr(kAttrComputeCapabilityMajor);
    info.cc_minor = attr(kAttrComputeCapabilityMinor);
    info.sms = uint32_t(attr(kAttrMultiprocessorCount));
    info.smem_optin = attr(kAttrMaxSharedMemoryPerBlockOptin);
    info.l2 = attr(kAttrL2CacheSize);
    size_t mem = 0;
    if (d.cuDeviceTotalMem(&mem, info.device) == kCudaSuccess) info.memory = mem;
    target_for_capability(info.cc_major, info.cc_minor, &info.target, &info.arch);
    if (info.target.empty()) {
      log_to(p, TG_LOG_INFO, "skipping device " + std::to_string(i) + " (" + info.name + "): compute capability " +
                                 std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor) + " is older than 8.0");
      continue;
    }
    p->infos.push_back(info);
  }
}

tg_error* init(const tg_host_info* host, tg_plugin** out_plugin) {
  return guarded("init", [&]() -> tg_error* {
    if (!host || !out_plugin) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: init: NULL argument");
    tg_plugin* plugin = new tg_plugin;
    plugin->abi_version = host->abi_version;
    if (host->struct_size >= sizeof(tg_host_info)) {
      plugin->log = host->log;
      plugin->log_user = host->log_user;
    }
    enumerate(plugin);
    *out_plugin = plugin;
    return nullptr;
  });
}

void shutdown(tg_plugin* plugin) {
  guarded_void([&] {
    if (!plugin) return;
    for (tg_device* d : plugin->devices) free_device(d);
    delete plugin;
  });
}

tg_error* device_count(tg_plugin* plugin, uint32_t* out_count) {
  if (!plugin || !out_count) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: device_count: NULL argument");
  *out_count = uint32_t(plugin->infos.size());
  return nullptr;
}

tg_error* device_properties(tg_plugin* plugin, uint32_t index, tg_device_properties* out) {
  return guarded("device_properties", [&]() -> tg_error* {
    if (!plugin || !plugin::device_properties_fit(out))
      return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: device_properties: bad argument");
    if (index >= plugin->infos.size()) return make_error(TG_ERR_NOT_FOUND, "cuda: no device " + std::to_string(index));
    const DeviceInfo& info = plugin->infos[index];
    plugin::answer_device_properties_size(out);
    out->next = nullptr;
    out->name = info.name.c_str();
    out->vendor = "NVIDIA";
    out->target = info.target.c_str();
    out->driver_version = plugin->driver_version.c_str();
    out->toolkit_version = plugin->toolkit_version.c_str();
    out->memory_bytes = info.memory;
    out->compute_units = info.sms;
    out->device_type = TG_DEVICE_TYPE_GPU;
    // Element accesses are not checked: one outside a tensor reaches whatever memory is there.
    plugin::set_out_of_range(out, TG_OUT_OF_RANGE_UNDEFINED);
    return nullptr;
  });
}

tg_error* device_open(tg_plugin* plugin, uint32_t index, tg_device** out_device) {
  return guarded("device_open", [&]() -> tg_error* {
    if (!plugin || !out_device) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: device_open: NULL argument");
    if (index >= plugin->infos.size()) return make_error(TG_ERR_NOT_FOUND, "cuda: no device " + std::to_string(index));
    const Driver& d = *plugin->driver;
    const DeviceInfo& info = plugin->infos[index];
    auto target = builtin_target(info.target);
    if (!target.is_ok()) return from_status(target.status(), "device_open");
    CUcontext ctx = nullptr;
    CUresult r = d.cuDevicePrimaryCtxRetain(&ctx, info.device);
    if (r != kCudaSuccess) return driver_error(d, r, "cuDevicePrimaryCtxRetain");
    tg_device* device = new tg_device;
    device->plugin = plugin;
    device->index = index;
    device->info = info;
    device->context = ctx;
    device->target = std::move(*target);
    if (info.smem_optin > 0 && int64_t(device->target.shared_memory_per_block) > info.smem_optin)
      log_to(plugin, TG_LOG_WARN, info.name + " offers " + std::to_string(info.smem_optin) + " bytes of shared memory per block, target '" +
                                      info.target + "' describes " + std::to_string(device->target.shared_memory_per_block) +
                                      "; kernels that use more fail at launch");
    plugin->devices.insert(device);
    *out_device = device;
    return nullptr;
  });
}

void device_close(tg_device* device) {
  guarded_void([&] {
    if (!device) return;
    device->plugin->devices.erase(device);
    free_device(device);
  });
}

}  // namespace tegula::cuda
