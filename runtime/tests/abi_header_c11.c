/* The plugin ABI header compiles as C11 (with -Wpedantic), and C sees the same layout as
 * C++: abi_layout_from_c() reports sizes and offsets as the C compiler computed them. */
#include <stddef.h>

#include "plugins/abi/tegula_plugin.h"
/* The entry list (and its checks against the table) is plain C11 too. */
#include "plugins/abi/tegula_abi_entries.h"

size_t abi_c11_sizeof_plugin_api(void) { return sizeof(tg_plugin_api); }
size_t abi_c11_offsetof_event_elapsed_ms(void) { return offsetof(tg_plugin_api, event_elapsed_ms); }
size_t abi_c11_sizeof_launch_arg(void) { return sizeof(tg_launch_arg); }
size_t abi_c11_offsetof_launch_arg_f64(void) { return offsetof(tg_launch_arg, f64); }
size_t abi_c11_sizeof_device_properties(void) { return sizeof(tg_device_properties); }
size_t abi_c11_sizeof_launch_params(void) { return sizeof(tg_launch_params); }
size_t abi_c11_entry_count(void) { return TG_ABI_ENTRY_COUNT; }

/* A plugin table can be written in C, positionally, like the null plugin's. */
static tg_error* c11_get_info(tg_plugin_info* out_info) {
  (void)out_info;
  return NULL;
}
const tg_plugin_api* abi_c11_partial_table(void) {
  static tg_plugin_api api = {
      /* .struct_size = */ sizeof(tg_plugin_api),
      /* .next        = */ NULL,
      /* .abi_version = */ TG_ABI_VERSION_1,
      /* .reserved    = */ 0,
  };
  api.get_info = c11_get_info;
  return &api;
}

#if __STDC_VERSION__ < 201112L
#error "not compiled as C11"
#endif
