/// \file
/// The reference plugin's function table and its one exported symbol.
#include "plugins/reference/Reference.h"

#include <cstdint>

namespace ref = tegula::reference;

static const tg_plugin_api reference_api = {
    /* .struct_size       = */ sizeof(tg_plugin_api),
    /* .next              = */ nullptr,
    /* .abi_version       = */ TG_ABI_VERSION_1,
    /* .reserved          = */ 0,
    /* .error_code        = */ ref::error_code,
    /* .error_message     = */ ref::error_message,
    /* .error_destroy     = */ ref::error_destroy,
    /* .get_info          = */ ref::get_info,
    /* .init              = */ ref::init,
    /* .shutdown          = */ ref::shutdown,
    /* .device_count      = */ ref::device_count,
    /* .device_properties = */ ref::device_properties,
    /* .device_target     = */ ref::device_target,
    /* .device_open       = */ ref::device_open,
    /* .device_close      = */ ref::device_close,
    /* .queue_create      = */ ref::queue_create,
    /* .queue_destroy     = */ ref::queue_destroy,
    /* .queue_synchronize = */ ref::queue_synchronize,
    /* .buffer_alloc      = */ ref::buffer_alloc,
    /* .buffer_free       = */ ref::buffer_free,
    /* .copy_h2d          = */ ref::copy_h2d,
    /* .copy_d2h          = */ ref::copy_d2h,
    /* .copy_d2d          = */ ref::copy_d2d,
    /* .buffer_fill       = */ ref::buffer_fill,
    /* .compile           = */ ref::compile,
    /* .blob_release      = */ ref::blob_release,
    /* .executable_load   = */ ref::executable_load,
    /* .executable_free   = */ ref::executable_free,
    /* .launch            = */ ref::launch,
    /* .event_create      = */ ref::event_create,
    /* .event_destroy     = */ ref::event_destroy,
    /* .event_record      = */ ref::event_record,
    /* .event_synchronize = */ ref::event_synchronize,
    /* .event_elapsed_ms  = */ ref::event_elapsed_ms,
    /* .compile_offline   = */ ref::compile_offline,
    /* .executable_describe = */ ref::executable_describe,
};

extern "C" TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi,
                                                                 uint32_t host_max_abi,
                                                                 const char** out_refusal) {
  if (host_min_abi > TG_ABI_VERSION_1 || host_max_abi < TG_ABI_VERSION_1) {
    if (out_refusal) *out_refusal = "the reference plugin speaks only tegula plugin ABI 1";
    return nullptr;
  }
  return &reference_api;
}
