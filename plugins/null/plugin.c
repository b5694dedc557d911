/*
 * plugin.c: identity and lifecycle of the null plugin.
 */
#include <stdlib.h>

#include "null_plugin.h"

#ifndef TEGULA_VERSION
#define TEGULA_VERSION "0.0.0"
#endif

tg_error* null_get_info(tg_plugin_info* out_info) {
  if (!out_info) return null_error(TG_ERR_INVALID_ARGUMENT, "null: get_info: out_info is NULL");
  /* A host built against an older header passes a smaller struct: fill what it covers. */
  if (out_info->struct_size < TG_PLUGIN_INFO_SIZE_1)
    return null_error(TG_ERR_INVALID_ARGUMENT, "null: get_info: tg_plugin_info too small");
  if (out_info->struct_size > sizeof(tg_plugin_info)) out_info->struct_size = sizeof(tg_plugin_info);
  out_info->next = NULL;
  /* TODO(null): your backend's name ([a-z0-9_]+, the same as in the manifest), vendor,
   * version (bump it whenever generated code changes: it is part of compile-cache keys). */
  out_info->name = "null";
  out_info->vendor = "tegula";
  out_info->version = TEGULA_VERSION;
  out_info->description = "the skeleton plugin: no devices, every call unimplemented";
  /* TODO(null): declare TG_CONCURRENT_COMPILE once compile and executable_load are safe on
   * several threads at once (tegula_plugin.h says what that takes): the host then compiles
   * many kernels at once instead of queueing them behind one lock. */
  if (out_info->struct_size >= offsetof(tg_plugin_info, reserved) + sizeof(out_info->reserved)) {
    out_info->concurrency = 0;
    out_info->reserved = 0;
  }
  return NULL;
}

tg_error* null_init(const tg_host_info* host, tg_plugin** out_plugin) {
  if (!host || !out_plugin) return null_error(TG_ERR_INVALID_ARGUMENT, "null: init: NULL argument");
  tg_plugin* plugin = (tg_plugin*)calloc(1, sizeof(tg_plugin));
  if (!plugin) return null_error(TG_ERR_OUT_OF_MEMORY, "null: init: out of memory");
  plugin->abi_version = host->abi_version;
  plugin->log = host->log;
  plugin->log_user = host->log_user;
  /* TODO(null): load the vendor driver here, through a table of dlsym'd entry points (do not
   * link it: the plugin must load, and report 0 devices, on machines without it). */
  if (plugin->log) plugin->log(plugin->log_user, TG_LOG_DEBUG, "null: initialised");
  *out_plugin = plugin;
  return NULL;
}

void null_shutdown(tg_plugin* plugin) {
  /* TODO(null): free every device, queue, buffer, executable and event still alive, and
   * join any thread the plugin started: the host may unload the library afterwards if the
   * manifest says "allow_unload": true. */
  free(plugin);
}
