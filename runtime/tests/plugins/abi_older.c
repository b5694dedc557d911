/* A plugin that speaks only ABI 0, older than any host: it refuses the host's offer. */
#include "runtime/tests/plugins/common.h"

TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi, uint32_t host_max_abi,
                                                      const char** out_refusal) {
  (void)host_max_abi;
  if (host_min_abi > 0) {
    *out_refusal = "this plugin speaks only tegula plugin ABI 0";
    return NULL;
  }
  static tg_plugin_api api;
  api = tp_base_api();
  api.abi_version = 0;
  return &api;
}
