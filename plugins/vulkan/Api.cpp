/// \file
/// The Vulkan plugin's function table and its one exported symbol.
#include "plugins/vulkan/VulkanPlugin.h"

#include <cstdint>

namespace vk = tegula::vulkan;

static const tg_plugin_api vulkan_api = {
    /* .struct_size         = */ sizeof(tg_plugin_api),
    /* .next                = */ nullptr,
    /* .abi_version         = */ TG_ABI_VERSION_1,
    /* .reserved            = */ 0,
    /* .error_code          = */ vk::error_code,
    /* .error_message       = */ vk::error_message,
    /* .error_destroy       = */ vk::error_destroy,
    /* .get_info            = */ vk::get_info,
    /* .init                = */ vk::init,
    /* .shutdown            = */ vk::shutdown,
    /* .device_count        = */ vk::device_count,
    /* .device_properties   = */ vk::device_properties,
    /* .device_target       = */ vk::device_target,
    /* .device_open         = */ vk::device_open,
    /* .device_close        = */ vk::device_close,
    /* .queue_create        = */ vk::queue_create,
    /* .queue_destroy       = */ vk::queue_destroy,
    /* .queue_synchronize   = */ vk::queue_synchronize,
    /* .buffer_alloc        = */ vk::buffer_alloc,
    /* .buffer_free         = */ vk::buffer_free,
    /* .copy_h2d            = */ vk::copy_h2d,
    /* .copy_d2h            = */ vk::copy_d2h,
    /* .copy_d2d            = */ vk::copy_d2d,
    /* .buffer_fill         = */ vk::buffer_fill,
    /* .compile             = */ vk::compile,
    /* .blob_release        = */ vk::blob_release,
    /* .executable_load     = */ vk::executable_load,
    /* .executable_free     = */ vk::executable_free,
    /* .launch              = */ vk::launch,
    /* .event_create        = */ vk::event_create,
    /* .event_destroy       = */ vk::event_destroy,
    /* .event_record        = */ vk::event_record,
    /* .event_synchronize   = */ vk::event_synchronize,
    /* .event_elapsed_ms    = */ vk::event_elapsed_ms,
    /* .compile_offline     = */ vk::compile_offline,
    /* .executable_describe = */ vk::executable_describe,
};

extern "C" TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi, uint32_t host_max_abi,
                                                                 const char** out_refusal) {
  if (host_min_abi > TG_ABI_VERSION_1 || host_max_abi < TG_ABI_VERSION_1) {
    if (out_refusal) *out_refusal = "the vulkan plugin speaks only tegula plugin ABI 1";
    return nullptr;
  }
  return &vulkan_api;
}
