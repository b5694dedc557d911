/* A plugin that looks for its hardware in tg_plugin_query and refuses to load without it. */
#include "runtime/tests/plugins/common.h"

TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(uint32_t host_min_abi, uint32_t host_max_abi,
                                                      const char** out_refusal) {
  (void)host_min_abi;
  (void)host_max_abi;
#ifdef TP_MULTILINE
  /* A reason that tries to add a line of its own to `tegula plugins`. */
  *out_refusal = "no test hardware present\n  /forged/manifest.json: loaded fine\r\tend";
#else
  *out_refusal = "no test hardware present";
#endif
  return NULL;
}
