/*
 * common.h: shared by the test plugins. A minimal plugin that works (one device, host-memory
 * buffers, a synchronous queue, no compiler) and that each test plugin copies and then
 * breaks in its own way, to show the host refuses or survives it.
 */
#ifndef TEGULA_RUNTIME_TESTS_PLUGINS_COMMON_H_
#define TEGULA_RUNTIME_TESTS_PLUGINS_COMMON_H_

#include "plugins/abi/tegula_plugin.h"

#ifndef TP_NAME
#error "define TP_NAME, the plugin's name"
#endif

/* An error object; message may be NULL (for plugins that answer nonsense). */
tg_error* tp_error(tg_status_code code, const char* message);

/* The working base table, ABI 1. */
tg_plugin_api tp_base_api(void);

/* The base entries, for plugins that wrap them. */
tg_error* tp_get_info(tg_plugin_info* out_info);
tg_error* tp_device_properties(tg_plugin* plugin, uint32_t index, tg_device_properties* out);

#endif
