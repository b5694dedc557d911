/*
 * device.c: device enumeration. The null plugin finds no hardware, which is not an error.
 */
#include <stddef.h>

#include "null_plugin.h"

tg_error* null_device_count(tg_plugin* plugin, uint32_t* out_count) {
  if (!plugin || !out_count) return null_error(TG_ERR_INVALID_ARGUMENT, "null: device_count: NULL argument");
  /* TODO(null): count the devices the driver reports. */
  *out_count = 0;
  return NULL;
}

tg_error* null_device_properties(tg_plugin* plugin, uint32_t index,
                                 tg_device_properties* out_properties) {
  (void)plugin;
  (void)index;
  (void)out_properties;
  /* TODO(null): name, vendor, the target description's name, versions, memory, and what the
   * device does with an access outside a tensor (out_of_range: detected, silent, undefined). */
  return null_unimplemented("device_properties");
}

tg_error* null_device_target(tg_plugin* plugin, uint32_t index, tg_target_description* out_target) {
  (void)plugin;
  (void)index;
  (void)out_target;
  /* TODO(null): either describe the device here (TG_TARGET_FORMAT_JSON_V1), or leave this
   * unimplemented and name a built-in description in tg_device_properties.target. */
  return null_unimplemented("device_target");
}

tg_error* null_device_open(tg_plugin* plugin, uint32_t index, tg_device** out_device) {
  (void)plugin;
  (void)index;
  (void)out_device;
  /* TODO(null): create the driver context for device `index`. */
  return null_unimplemented("device_open");
}

void null_device_close(tg_device* device) {
  (void)device;
  /* TODO(null): destroy the context. */
}
