/// \file
/// Identity, lifecycle and devices. A machine without libamdhip64, or whose runtime finds no
/// GPU, loads the plugin fine and reports 0 devices; the reason goes to the host's log (at
/// info level: TEGULA_LOADER_DEBUG=1 shows it).
#include <cstdint>

#include "plugins/hip/Hip.h"
#include "plugins/support/DeviceProperties.h"
#include "plugins/support/PluginInfo.h"

#ifndef TEGULA_VERSION
#define TEGULA_VERSION "0.0.0"
#endif

namespace tegula::hip {

static void log_to(tg_plugin* p, tg_log_level level, const std::string& message) {
  if (p && p->log) p->log(p->log_user, level, ("hip: " + message).c_str());
}

tg_error* runtime_error(const Runtime& r, hipError_t e, const std::string& what) {
  tg_status_code code = e == kHipErrorOutOfMemory ? TG_ERR_OUT_OF_MEMORY : TG_ERR_DEVICE;
  return make_error(code, "hip: " + what + ": " + runtime_error_text(r, e));
}

tg_error* activate(tg_device* device) {
  const Runtime& r = *device->plugin->runtime;
  hipError_t e = r.hipSetDevice(device->info.ordinal);
  return e == kHipSuccess ? nullptr : runtime_error(r, e, "hipSetDevice");
}

void free_device(tg_device* device) {
  const Runtime& r = *device->plugin->runtime;
  r.hipSetDevice(device->info.ordinal);
  for (tg_executable* e : device->executables) {
    r.hipModuleUnload(e->module);
    delete e;
  }
  for (tg_event* e : device->events) {
    r.hipEventDestroy(e->event);
    delete e;
  }
  for (tg_queue* q : device->queues) {
    r.hipStreamSynchronize(q->stream);
    r.hipStreamDestroy(q->stream);
    delete q;
  }
  for (tg_buffer* b : device->buffers) {
    if (b->ptr) r.hipFree(b->ptr);
    delete b;
  }
  delete device;
}

tg_error* get_info(tg_plugin_info* out_info) {
  if (!out_info || !plugin::plugin_info_fits(out_info))
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: get_info: bad tg_plugin_info");
  plugin::answer_plugin_info_size(out_info);
  out_info->next = nullptr;
  out_info->name = "hip";
  out_info->vendor = "AMD";
  out_info->version = TEGULA_VERSION "-hip1";  // part of compile-cache keys
  out_info->description =
      "AMD Instinct GPUs through the HIP runtime (dlopen'ed): LLVM 19 AMDGPU code objects linked by lld";
  // Not declared: the code object is linked by lld, which is not known to be safe on
  // several threads at once (and this backend has not run on hardware).
  plugin::set_concurrency(out_info, 0);
  return nullptr;
}

static DeviceInfo read_device(const Runtime& r, int ordinal) {
  DeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {0};
  if (r.hipDeviceGetName(name, sizeof name - 1, ordinal) == kHipSuccess) info.name = name;
  auto attr = [&](int a) {
    int v = 0;
    return r.hipDeviceGetAttribute(&v, a, ordinal) == kHipSuccess ? v : 0;
  };
  info.gfx_major = attr(kAttrComputeCapabilityMajor);
  info.gfx_minor = attr(kAttrComputeCapabilityMinor);
  info.compute_units = uint32_t(attr(kAttrMultiprocessorCount));
  info.wave = attr(kAttrWarpSize);
  info.lds = attr(kAttrMaxSharedMemoryPerBlock);
  size_t mem = 0;
  if (r.hipDeviceTotalMem(&mem, ordinal) == kHipSuccess) info.memory = mem;
  info.target = target_for_gfx(info.gfx_major, info.gfx_minor);
  return info;
}

static void enumerate(tg_plugin* p) {
  std::string why;
  p->runtime = load_runtime(&why);
  if (!p->runtime) {
    log_to(p, TG_LOG_INFO, "no devices: " + why);
    return;
  }
  const Runtime& r = *p->runtime;
  p->runtime_version = std::to_string(r.version / 10000000) + "." + std::to_string((r.version / 100000) % 100);
  int count = 0;
  hipError_t e = r.hipGetDeviceCount(&count);
  if (e != kHipSuccess) {
    log_to(p, TG_LOG_INFO, "no devices: hipGetDeviceCount: " + runtime_error_text(r, e));
    return;
  }
  if (count == 0) log_to(p, TG_LOG_INFO, "no devices: " + r.path + " reports no GPU");
  for (int i = 0; i < count; ++i) {
    DeviceInfo info = read_device(r, i);
    if (info.target.empty()) {
      log_to(p, TG_LOG_INFO,
             "skipping device " + std::to_string(i) + " (" + info.name + "): gfx " + std::to_string(info.gfx_major) +
                 "." + std::to_string(info.gfx_minor) + " has no target description (gfx942 and gfx950 do)");
      continue;
    }
    if (info.wave != 64)
      log_to(
          p, TG_LOG_WARN,
          "device " + std::to_string(i) + " reports a wave of " + std::to_string(info.wave) + ", the description 64");
    p->infos.push_back(info);
  }
}

tg_error* init(const tg_host_info* host, tg_plugin** out_plugin) {
  if (!host || !out_plugin) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: init: NULL argument");
  tg_plugin* plugin = new tg_plugin;
  if (host->struct_size >= sizeof(tg_host_info)) {
    plugin->log = host->log;
    plugin->log_user = host->log_user;
  }
  enumerate(plugin);
  *out_plugin = plugin;
  return nullptr;
}

void shutdown(tg_plugin* plugin) {
  if (!plugin) return;
  for (tg_device* d : plugin->devices) free_device(d);
  delete plugin;
}

tg_error* device_count(tg_plugin* plugin, uint32_t* out_count) {
  if (!plugin || !out_count) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: device_count: NULL argument");
  *out_count = uint32_t(plugin->infos.size());
  return nullptr;
}

tg_error* device_properties(tg_plugin* plugin, uint32_t index, tg_device_properties* out) {
  if (!plugin || !plugin::device_properties_fit(out))
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: device_properties: bad argument");
  if (index >= plugin->infos.size()) return make_error(TG_ERR_NOT_FOUND, "hip: no device " + std::to_string(index));
  const DeviceInfo& info = plugin->infos[index];
  plugin::answer_device_properties_size(out);
  out->next = nullptr;
  out->name = info.name.c_str();
  out->vendor = "AMD";
  out->target = info.target.c_str();
  out->driver_version = plugin->runtime_version.c_str();
  out->toolkit_version = "LLVM 19";
  out->memory_bytes = info.memory;
  out->compute_units = info.compute_units;
  out->device_type = TG_DEVICE_TYPE_GPU;
  // Element accesses are not checked: one outside a tensor reaches whatever memory is there.
  plugin::set_out_of_range(out, TG_OUT_OF_RANGE_UNDEFINED);
  return nullptr;
}

tg_error* device_open(tg_plugin* plugin, uint32_t index, tg_device** out_device) {
  if (!plugin || !out_device) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: device_open: NULL argument");
  if (index >= plugin->infos.size()) return make_error(TG_ERR_NOT_FOUND, "hip: no device " + std::to_string(index));
  const DeviceInfo& info = plugin->infos[index];
  Result<TargetDescription> target = builtin_target(info.target);
  if (!target.is_ok()) return from_status(target.status(), "device_open");
  tg_device* device = new tg_device;
  device->plugin = plugin;
  device->index = index;
  device->info = info;
  device->target = std::move(*target);
  if (tg_error* e = activate(device)) {
    delete device;
    return e;
  }
  if (info.lds > 0 && device->target.shared_memory_per_block > info.lds)
    log_to(plugin, TG_LOG_WARN,
           info.name + " offers " + std::to_string(info.lds) + " bytes of LDS per block, the description " +
               std::to_string(device->target.shared_memory_per_block));
  plugin->devices.insert(device);
  *out_device = device;
  return nullptr;
}

void device_close(tg_device* device) {
  if (!device) return;
  device->plugin->devices.erase(device);
  free_device(device);
}

}  // namespace tegula::hip
