/// \file
/// Identity, lifecycle and the one device of the reference plugin.
#include <cstdint>

#include "plugins/reference/Reference.h"
#include "plugins/support/DeviceProperties.h"
#include "plugins/support/PluginInfo.h"

#ifndef TEGULA_VERSION
#define TEGULA_VERSION "0.0.0"
#endif

namespace tegula::reference {

// Queues, buffers, transfers and events: the SDK's synchronous host device. Here rather than
// beside the table (Api.cpp), so the conformance test plugins, built from these sources
// with their own table, have them too.
TG_SDK_HOST_DEVICE_ENTRIES(TG_REFERENCE_NAME)

namespace {

void free_executable(tg_executable* e) { delete e; }

void free_device(tg_device* device) { plugin::host_device_free(device, free_executable); }

}  // namespace

tg_error* get_info(tg_plugin_info* out_info) {
  return guarded("get_info", [&]() -> tg_error* {
    if (!out_info || !plugin::plugin_info_fits(out_info))
      return make_error(TG_ERR_INVALID_ARGUMENT, "reference: get_info: bad tg_plugin_info");
    plugin::answer_plugin_info_size(out_info);
    out_info->next = nullptr;
    out_info->name = TG_REFERENCE_NAME;
    out_info->vendor = "tegula";
    // Part of compile-cache keys: executables hold IR text, so they change only when
    // tegula (and with it the IR reader) does.
    out_info->version = TEGULA_VERSION;
    out_info->description = "the reference interpreter: host memory, synchronous, exact float64 arithmetic";
    // compile only reads the IR; executable_load records through the host device's mutex.
    plugin::set_concurrency(out_info, TG_CONCURRENT_COMPILE);
    return nullptr;
  });
}

tg_error* init(const tg_host_info* host, tg_plugin** out_plugin) {
  return guarded("init", [&]() -> tg_error* {
    if (!host || !out_plugin) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: init: NULL argument");
    tg_plugin* plugin = new tg_plugin;
    plugin->abi_version = host->abi_version;
    if (host->struct_size >= sizeof(tg_host_info)) {
      plugin->log = host->log;
      plugin->log_user = host->log_user;
    }
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
  if (!plugin || !out_count) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: device_count: NULL argument");
  *out_count = 1;
  return nullptr;
}

tg_error* device_properties(tg_plugin* plugin, uint32_t index, tg_device_properties* out) {
  if (!plugin || !plugin::device_properties_fit(out))
    return make_error(TG_ERR_INVALID_ARGUMENT, "reference: device_properties: bad argument");
  if (index != 0) return make_error(TG_ERR_NOT_FOUND, "reference: there is only device 0");
  plugin::answer_device_properties_size(out);
  out->next = nullptr;
  out->name = "tegula reference interpreter";
  out->vendor = "tegula";
  out->target = "reference";
  out->driver_version = "";
  out->toolkit_version = "";
  out->memory_bytes = plugin::host_memory_bytes();
  out->compute_units = 1;
  out->device_type = TG_DEVICE_TYPE_REFERENCE;
  // The interpreter refuses an element index outside its tensor before touching memory.
  plugin::set_out_of_range(out, TG_OUT_OF_RANGE_DETECTED);
  return nullptr;
}

// The reference device describes itself instead of naming a built-in description: this is
// how a new accelerator hands the shared lowering its sizes, limits and instructions.
tg_error* device_target(tg_plugin* plugin, uint32_t index, tg_target_description* out) {
  if (!plugin || !out || out->struct_size < sizeof(tg_target_description))
    return make_error(TG_ERR_INVALID_ARGUMENT, "reference: device_target: bad argument");
  if (index != 0) return make_error(TG_ERR_NOT_FOUND, "reference: there is only device 0");
  out->struct_size = sizeof(tg_target_description);
  out->next = nullptr;
  out->format = TG_TARGET_FORMAT_JSON_V1;
  out->data = target_json();
  out->size = std::char_traits<char>::length(target_json());
  return nullptr;
}

tg_error* device_open(tg_plugin* plugin, uint32_t index, tg_device** out_device) {
  return guarded("device_open", [&]() -> tg_error* {
    if (!plugin || !out_device) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: device_open: NULL argument");
    if (index != 0) return make_error(TG_ERR_NOT_FOUND, "reference: there is only device 0");
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

}  // namespace tegula::reference
