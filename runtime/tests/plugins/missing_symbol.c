/* A library that exports a misspelt entry point instead of tg_plugin_query. */
#include "runtime/tests/plugins/common.h"

TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_querry(uint32_t host_min_abi, uint32_t host_max_abi,
                                                       const char** out_refusal);
TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_querry(uint32_t host_min_abi, uint32_t host_max_abi,
                                                       const char** out_refusal) {
  (void)host_min_abi;
  (void)host_max_abi;
  (void)out_refusal;
  static tg_plugin_api api;
  api = tp_base_api();
  return &api;
}
