/// \file
/// Identity, lifecycle and the one device of the CPU plugin.
#include "llvm/Config/llvm-config.h"

#include <cstdint>
#include <memory>
#include "plugins/cpu/Cpu.h"
#include "plugins/cpu/Jit.h"
#include "plugins/cpu/ThreadPool.h"
#include "plugins/support/DeviceProperties.h"
#include "plugins/support/PluginInfo.h"
#include "targets/Target.h"

#ifndef TEGULA_VERSION
#define TEGULA_VERSION "0.0.0"
#endif

namespace tegula::cpu {
namespace {

// Part of compile-cache keys: bump it whenever the generated code changes.
constexpr const char* kPluginVersion = TEGULA_VERSION "+cpu.1";

void free_device(tg_device* device) { plugin::host_device_free(device, destroy_executable); }

}  // namespace

void log(tg_plugin* plugin, tg_log_level level, const std::string& message) {
  if (plugin && plugin->log) plugin->log(plugin->log_user, level, ("cpu: " + message).c_str());
}

tg_error* get_info(tg_plugin_info* out_info) {
  return guarded("get_info", [&]() -> tg_error* {
    if (!out_info || !plugin::plugin_info_fits(out_info))
      return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: get_info: bad tg_plugin_info");
    plugin::answer_plugin_info_size(out_info);
    out_info->next = nullptr;
    out_info->name = "cpu";
    out_info->vendor = "tegula";
    out_info->version = kPluginVersion;
    out_info->description = "the host CPU through LLVM 19: object code per kernel, blocks on a thread pool over every core";
    // Each compile has its own LLVMContext and TargetMachine; the JIT that executable_load
    // links into is guarded by its own mutex.
    plugin::set_concurrency(out_info, TG_CONCURRENT_COMPILE);
    return nullptr;
  });
}

tg_error* init(const tg_host_info* host, tg_plugin** out_plugin) {
  return guarded("init", [&]() -> tg_error* {
    if (!host || !out_plugin) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: init: NULL argument");
    Status llvm = initialize_llvm();
    if (!llvm.is_ok()) return from_status(llvm, "init");
    auto plugin = std::make_unique<tg_plugin>();
    plugin->abi_version = host->abi_version;
    if (host->struct_size >= sizeof(tg_host_info)) {
      plugin->log = host->log;
      plugin->log_user = host->log_user;
    }
    plugin->host = detect_host();
    plugin->target_json = host_target_json(plugin->host);
    auto description = parse_target(plugin->target_json, "host_cpu (cpu device description)");
    if (!description.is_ok()) return from_status(description.status(), "the host's own description");
    plugin->target = std::move(description).value();
    plugin->target_hash = target_hash(plugin->target);
    plugin->device_name = plugin->host.brand;
    plugin->pool = std::make_unique<ThreadPool>(plugin->host.cores);
    log(plugin.get(), TG_LOG_INFO, "host " + plugin->host.brand + " (" + plugin->host.cpu_name + "), " +
                                       std::to_string(plugin->host.cores) + " cores, " +
                                       std::to_string(plugin->host.vector_bytes * 8) + "-bit vectors");
    *out_plugin = plugin.release();
    return nullptr;
  });
}

void shutdown(tg_plugin* plugin) {
  guarded_void([&] {
    if (!plugin) return;
    for (tg_device* d : plugin->devices) free_device(d);
    plugin->devices.clear();
    plugin->pool.reset();  // joins the workers
    plugin->jit.reset();
    delete plugin;
  });
}

tg_error* device_count(tg_plugin* plugin, uint32_t* out_count) {
  if (!plugin || !out_count) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: device_count: NULL argument");
  *out_count = 1;
  return nullptr;
}

tg_error* device_properties(tg_plugin* plugin, uint32_t index, tg_device_properties* out) {
  if (!plugin || !plugin::device_properties_fit(out))
    return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: device_properties: bad argument");
  if (index != 0) return make_error(TG_ERR_NOT_FOUND, "cpu: there is only device 0");
  plugin::answer_device_properties_size(out);
  out->next = nullptr;
  out->name = plugin->device_name.c_str();
  out->vendor = plugin->host.vendor.c_str();
  out->target = "host_cpu";
  out->driver_version = "";
  out->toolkit_version = "LLVM " LLVM_VERSION_STRING;
  out->memory_bytes = plugin->host.memory_bytes;
  out->compute_units = plugin->host.cores;
  out->device_type = TG_DEVICE_TYPE_CPU;
  // Element loads and stores check their indices and fail the launch (codegen/Expr.cpp).
  plugin::set_out_of_range(out, TG_OUT_OF_RANGE_DETECTED);
  return nullptr;
}

// The detected CPU described for the shared lowering (vector width, cores, features).
tg_error* device_target(tg_plugin* plugin, uint32_t index, tg_target_description* out) {
  if (!plugin || !out || out->struct_size < sizeof(tg_target_description))
    return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: device_target: bad argument");
  if (index != 0) return make_error(TG_ERR_NOT_FOUND, "cpu: there is only device 0");
  out->struct_size = sizeof(tg_target_description);
  out->next = nullptr;
  out->format = TG_TARGET_FORMAT_JSON_V1;
  out->data = plugin->target_json.data();
  out->size = plugin->target_json.size();
  return nullptr;
}

tg_error* device_open(tg_plugin* plugin, uint32_t index, tg_device** out_device) {
  return guarded("device_open", [&]() -> tg_error* {
    if (!plugin || !out_device) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: device_open: NULL argument");
    if (index != 0) return make_error(TG_ERR_NOT_FOUND, "cpu: there is only device 0");
    tg_device* device = new tg_device(plugin);
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

}  // namespace tegula::cpu
