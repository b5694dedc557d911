/// \file
/// What every in-tree plugin needs at its ABI boundary, written once: error objects (a
/// copied message; a static out-of-memory error stands in when even that allocation fails,
/// since a NULL error means success), the mappings between tegula Status codes and
/// tg_status_code (a plugin's and a host's: the runtime and the test harness read errors
/// with them), and the guard that keeps exceptions from crossing the C ABI.
///
/// Part of the plugin SDK (tegula::plugin_sdk, installed for out-of-tree plugins). Plugins link
/// it statically (tg_plugin's LIBS), so each .so has its own copy and exports nothing more. A
/// plugin may also do without it: the C header is the contract (plugins/null's error.c shows
/// self-contained error objects).
#pragma once

#include <cstdint>
#include <new>
#include <string>

#include "core/Status.h"
#include "plugins/abi/tegula_plugin.h"

namespace tegula::plugin {

/// An error object; never nullptr.
tg_error* make_error(tg_status_code code, const std::string& message);
tg_status_code status_code_for(const Status& status);
/// The other way, as a host reads a plugin's error: the tegula code a tg_status_code stands
/// for (an error object saying TG_OK is itself a plugin bug: ErrorCode::Plugin).
ErrorCode error_code_for(tg_status_code code);
/// "TG_ERR_CORRUPT" for a code the ABI defines; nullptr for another value.
const char* status_code_name(tg_status_code code);
/// "<plugin>: <context>: <status>" with the status's code; a message that already names the
/// plugin is kept as it is.
tg_error* error_from_status(const char* plugin, const Status& status, const char* context);

tg_status_code error_code(const tg_error* error);
const char* error_message(const tg_error* error);
void error_destroy(tg_error* error);

/// Run an entry point's body; an exception that escapes it becomes an error.
template <typename F>
tg_error* guarded(const char* plugin, const char* entry, F&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return make_error(TG_ERR_OUT_OF_MEMORY, std::string(plugin) + ": " + entry + ": out of memory");
  } catch (...) {
    return make_error(TG_ERR_INTERNAL, std::string(plugin) + ": " + entry + ": unexpected exception");
  }
}

/// The same for entries that return nothing (frees, destroys): an exception is dropped.
template <typename F>
void guarded_void(F&& body) {
  try {
    body();
  } catch (...) {
  }
}

/// [offset, offset + size) lies inside a buffer of `buffer_size` bytes, without overflow.
inline bool range_ok(uint64_t buffer_size, uint64_t offset, uint64_t size) {
  return offset <= buffer_size && size <= buffer_size - offset;
}

}  // namespace tegula::plugin
