/// \file
/// The CPU plugin's function table and its one exported symbol.
#include "plugins/cpu/Cpu.h"

#include <cstdint>

namespace cpu = tegula::cpu;

static const tg_plugin_api cpu_api = {
    /* .struct_size         = */ sizeof(tg_plugin_api),
    /* .next                = */ nullptr,
    /* .abi_version         = */ TG_ABI_VERSION_1,
    /* .reserved            = */ 0,
    /* .error_code          = */ cpu::error_code,
    /* .error_message       = */ cpu::error_message,
    /* .error_destroy       = */ cpu::error_destroy,
    /* .get_info            = */ cpu::get_info,
    /* .init                = */ cpu::init,
    /* .shutdown            = */ cpu::shutdown,
    /* .device_count        = */ cpu::device_count,
    /* .device_properties   = */ cpu::device_properties,
    /* .device_target       = */ cpu::device_target,
    /* .device_open         = */ cpu::device_open,
    /* .device_close        = */ cpu::device_close,
    /* .queue_create        = */ cpu::queue_create,
    /* .queue_destroy       = */ cpu::queue_destroy,
    /* .queue_synchronize   = */ cpu::queue_synchronize,
    /* .buffer_alloc        = */ cpu::buffer_alloc,
    /* .buffer_free         = */ cpu::buffer_free,
    /* .copy_h2d            = */ cpu::copy_h2d,
    /* .copy_d2h            = */ cpu::copy_d2h,
    /* .copy_d2d            = */ cpu::copy_d2d,
    /* .buffer_fill         = */ cpu::buffer_fill,
    /* .compile             = */ cpu::compile,
    /* .blob_release        = */ cpu::blob_release,
    /* .executable_load     = */ cpu::executable_load,
    /* .executable_free     = */ cpu::executable_free,
    /* .launch              = */ cpu::launch,
    /* .event_create        = */ cpu::event_create,
    /* .event_destroy       = */ cpu::event_destroy,
    /* .event_record        = */ cpu::event_record,
    /* .event_synchronize   = */ cpu::event_synchronize,
    /* .event_elapsed_ms    = */ cpu::event_elapsed_ms,
    /* .compile_offline     = */ nullptr,  // object code is for the host CPU only
    /* .executable_describe = */ cpu::executable_describe,
};

extern "C" TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi,
                                                                 uint32_t host_max_abi,
                                                                 const char** out_refusal) {
  if (host_min_abi > TG_ABI_VERSION_1 || host_max_abi < TG_ABI_VERSION_1) {
    if (out_refusal) *out_refusal = "the cpu plugin speaks only tegula plugin ABI 1";
    return nullptr;
  }
  return &cpu_api;
}
