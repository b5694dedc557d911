/* A plugin that speaks ABI 1 and 2, where (in this test's imagination) version 2 appended an
 * entry to the table. Offered 1..1 it answers version 1 with its larger table, which a
 * version-1 host must accept and use. */
#include "runtime/tests/plugins/common.h"

typedef struct tp_api_v2 {
  tg_plugin_api v1;
  tg_error* (*v2_only_entry)(tg_plugin* plugin); /* appended in "ABI 2" */
} tp_api_v2;

static tg_error* v2_only_entry(tg_plugin* plugin) {
  (void)plugin;
  return NULL;
}

TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi, uint32_t host_max_abi,
                                                      const char** out_refusal) {
  uint32_t v = host_max_abi < 2 ? host_max_abi : 2;
  if (v < 1 || v < host_min_abi) {
    *out_refusal = "this plugin speaks ABI 1..2";
    return NULL;
  }
  static tp_api_v2 api;
  api.v1 = tp_base_api();
  api.v1.struct_size = sizeof(tp_api_v2);
  api.v1.abi_version = v;
  api.v2_only_entry = v2_only_entry;
  return &api.v1;
}
