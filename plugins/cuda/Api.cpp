/// \file
/// The cuda plugin's function table and its one exported symbol.
#include "plugins/cuda/Cuda.h"

#include <cstdint>

namespace cu = tegula::cuda;

static const tg_plugin_api cuda_api = {
    /* .struct_size         = */ sizeof(tg_plugin_api),
    /* .next                = */ nullptr,
    /* .abi_version         = */ TG_ABI_VERSION_1,
    /* .reserved            = */ 0,
    /* .error_code          = */ cu::error_code,
    /* .error_message       = */ cu::error_message,
    /* .error_destroy       = */ cu::error_destroy,
    /* .get_info            = */ cu::get_info,
    /* .init                = */ cu::init,
    /* .shutdown            = */ cu::shutdown,
    /* .device_count        = */ cu::device_count,
    /* .device_properties   = */ cu::device_properties,
    /* .device_target       = */ nullptr,  // the built-in description its properties name
    /* .device_open         = */ cu::device_open,
    /* .device_close        = */ cu::device_close,
    /* .queue_create        = */ cu::queue_create,
    /* .queue_destroy       = */ cu::queue_destroy,
    /* .queue_synchronize   = */ cu::queue_synchronize,
    /* .buffer_alloc        = */ cu::buffer_alloc,
    /* .buffer_free         = */ cu::buffer_free,
    /* .copy_h2d            = */ cu::copy_h2d,
    /* .copy_d2h            = */ cu::copy_d2h,
    /* .copy_d2d            = */ cu::copy_d2d,
    /* .buffer_fill         = */ cu::buffer_fill,
    /* .compile             = */ cu::compile,
    /* .blob_release        = */ cu::blob_release,
    /* .executable_load     = */ cu::executable_load,
    /* .executable_free     = */ cu::executable_free,
    /* .launch              = */ cu::launch,
    /* .event_create        = */ cu::event_create,
    /* .event_destroy       = */ cu::event_destroy,
    /* .event_record        = */ cu::event_record,
    /* .event_synchronize   = */ cu::event_synchronize,
    /* .event_elapsed_ms    = */ cu::event_elapsed_ms,
    /* .compile_offline     = */ cu::compile_offline,
    /* .executable_describe = */ cu::executable_describe,
};

extern "C" TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi, uint32_t host_max_abi,
                                                                 const char** out_refusal) {
  if (host_min_abi > TG_ABI_VERSION_1 || host_max_abi < TG_ABI_VERSION_1) {
    if (out_refusal) *out_refusal = "the cuda plugin speaks only tegula plugin ABI 1";
    return nullptr;
  }
  return &cuda_api;
}
