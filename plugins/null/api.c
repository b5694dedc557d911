/*
 * api.c: the null plugin's function table and its one exported symbol.
 *
 * The table is filled positionally with a field comment on every line, so a missing entry
 * shows in review. Keep it in header order.
 */
#include <stddef.h>

#include "null_plugin.h"

static const tg_plugin_api null_api = {
    /* .struct_size       = */ sizeof(tg_plugin_api),
    /* .next              = */ NULL,
    /* .abi_version       = */ TG_ABI_VERSION_1,
    /* .reserved          = */ 0,
    /* .error_code        = */ null_error_code,
    /* .error_message     = */ null_error_message,
    /* .error_destroy     = */ null_error_destroy,
    /* .get_info          = */ null_get_info,
    /* .init              = */ null_init,
    /* .shutdown          = */ null_shutdown,
    /* .device_count      = */ null_device_count,
    /* .device_properties = */ null_device_properties,
    /* .device_target     = */ null_device_target,
    /* .device_open       = */ null_device_open,
    /* .device_close      = */ null_device_close,
    /* .queue_create      = */ null_queue_create,
    /* .queue_destroy     = */ null_queue_destroy,
    /* .queue_synchronize = */ null_queue_synchronize,
    /* .buffer_alloc      = */ null_buffer_alloc,
    /* .buffer_free       = */ null_buffer_free,
    /* .copy_h2d          = */ null_copy_h2d,
    /* .copy_d2h          = */ null_copy_d2h,
    /* .copy_d2d          = */ null_copy_d2d,
    /* .buffer_fill       = */ null_buffer_fill,
    /* .compile           = */ null_compile,
    /* .blob_release      = */ null_blob_release,
    /* .executable_load   = */ null_executable_load,
    /* .executable_free   = */ null_executable_free,
    /* .launch            = */ null_launch,
    /* .event_create      = */ null_event_create,
    /* .event_destroy     = */ null_event_destroy,
    /* .event_record      = */ null_event_record,
    /* .event_synchronize = */ null_event_synchronize,
    /* .event_elapsed_ms  = */ null_event_elapsed_ms,
    /* .compile_offline   = */ null_compile_offline,
    /* .executable_describe = */ null_executable_describe,
};

/* This plugin speaks ABI 1 only. A plugin that speaks several versions returns the table
 * of the highest one inside [host_min_abi, host_max_abi]. */
TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi,
                                                      uint32_t host_max_abi,
                                                      const char** out_refusal) {
  if (host_min_abi > TG_ABI_VERSION_1 || host_max_abi < TG_ABI_VERSION_1) {
    if (out_refusal) *out_refusal = "the null plugin speaks only tegula plugin ABI 1";
    return NULL;
  }
  return &null_api;
}
