/// \file
/// A C++ plugin's function table and tg_plugin_query, built from the one entry list
/// (TG_FOR_EACH_ABI_ENTRY, plugins/abi/tegula_abi_entries.h), with every entry behind a
/// guarded thunk: a C++ exception (std::bad_alloc included) that escapes an entry becomes an
/// error object (TG_ERR_OUT_OF_MEMORY / TG_ERR_INTERNAL) instead of crossing the C ABI; an
/// entry that returns nothing drops it. The guard is structural, so a new entry body cannot
/// forget it.
///
/// A plugin declares its entries in its namespace and defines them there:
///
///     namespace acme { TG_SDK_DECLARE_ENTRIES() }        // in its private header
///     tg_error* acme::launch(tg_queue* q, ...) { ... }    // anywhere
///
/// and one source file makes the table and the exported symbol:
///
///     TG_SDK_PLUGIN_TABLE(acme, "acme", {})
///
/// The third argument names optional entries the plugin leaves NULL, e.g.
/// `{.compile_offline = true}`; omitting a required one is a compile error. Error objects
/// are the SDK's (PluginErrors.h), so a plugin defines only TG_ABI_PLUGIN_ENTRIES.
#pragma once

#include <cstddef>
#include <new>
#include <string>
#include <type_traits>

#include "plugins/abi/tegula_abi_entries.h"
#include "plugins/abi/tegula_plugin.h"
#include "plugins/support/PluginErrors.h"

namespace tegula::plugin {

// The list's signatures are the header's: each field has exactly the listed type.
#define TG_SDK_CHECK_SIGNATURE(name, ret, params, args, since, optional) \
  static_assert(std::is_same_v<decltype(tg_plugin_api::name), ret(*) params>, #name "'s signature");
TG_FOR_EACH_ABI_ENTRY(TG_SDK_CHECK_SIGNATURE)
#undef TG_SDK_CHECK_SIGNATURE

/// A string literal as a template argument (the names in a thunk's error messages).
template <size_t N>
struct Literal {
  char text[N];
  constexpr Literal(const char (&s)[N]) {  // NOLINT: implicit on purpose, for "name" arguments
    for (size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};

/// Guarded<plugin, entry, fn>::call has fn's signature and runs fn behind the guard.
template <Literal Plugin, Literal Entry, auto Fn>
struct Guarded;

template <Literal Plugin, Literal Entry, class... Args, tg_error* (*Fn)(Args...)>
struct Guarded<Plugin, Entry, Fn> {
  static tg_error* call(Args... args) noexcept {
    try {
      return Fn(args...);
    } catch (const std::bad_alloc&) {
      return make_error(TG_ERR_OUT_OF_MEMORY, std::string(Plugin.text) + ": " + Entry.text + ": out of memory");
    } catch (...) {
      return make_error(TG_ERR_INTERNAL, std::string(Plugin.text) + ": " + Entry.text + ": unexpected exception");
    }
  }
};

template <Literal Plugin, Literal Entry, class... Args, void (*Fn)(Args...)>
struct Guarded<Plugin, Entry, Fn> {
  // A free/destroy/close has no way to report a failure; the exception is dropped rather than
  // let through (the object may leak, the host survives).
  static void call(Args... args) noexcept {
    try {
      Fn(args...);
    } catch (...) {
    }
  }
};

/// Which optional entries a plugin leaves NULL (designated initialisers: {.device_target = true}).
struct Omitted {
#define TG_SDK_OMITTED_FIELD(name, ret, params, args, since, optional) bool name = false;
  TG_FOR_EACH_ABI_ENTRY(TG_SDK_OMITTED_FIELD)
#undef TG_SDK_OMITTED_FIELD
};

}  // namespace tegula::plugin

/// Declarations of a plugin's entries (every entry but the SDK's error entries), to expand
/// inside the plugin's namespace.
#define TG_SDK_DECLARE_ENTRY(name, ret, params, args, since, optional) ret name params;
#define TG_SDK_DECLARE_ENTRIES() TG_ABI_PLUGIN_ENTRIES(TG_SDK_DECLARE_ENTRY)

// One table field. Expanded inside TG_SDK_DEFINE_TABLE's function (below), where `omit`, `plugin_name`
// and the namespace alias `tg_sdk_entries` are in scope. The discarded branch of an omitted
// entry is never instantiated, so an omitted entry needs no definition.
#define TG_SDK_TABLE_FIELD(name, ret, params, args, since, optional)                            \
  static_assert(optional || !omit.name, "TG_SDK_PLUGIN_TABLE: " #name " is required");         \
  if constexpr (omit.name) {                                                                    \
    table.name = nullptr;                                                                       \
  } else {                                                                                      \
    table.name = &::tegula::plugin::Guarded<plugin_name, #name, &tg_sdk_entries::name>::call;   \
  }

/// `constexpr tg_plugin_api VAR`: the function table of the plugin whose entries are defined
/// in namespace NS. NAME is the plugin's name as a string literal (for the thunks' messages);
/// the rest an Omitted initialiser.
#define TG_SDK_DEFINE_TABLE(VAR, NS, NAME, ...)                                                 \
  template <::tegula::plugin::Literal plugin_name, ::tegula::plugin::Omitted omit>              \
  constexpr tg_plugin_api VAR##_make() {                                                        \
    namespace tg_sdk_entries = NS;                                                              \
    tg_plugin_api table{};                                                                      \
    table.struct_size = sizeof(tg_plugin_api);                                                  \
    table.next = nullptr;                                                                       \
    table.abi_version = TG_ABI_VERSION_1;                                                       \
    table.error_code = ::tegula::plugin::error_code;                                            \
    table.error_message = ::tegula::plugin::error_message;                                      \
    table.error_destroy = ::tegula::plugin::error_destroy;                                      \
    TG_ABI_PLUGIN_ENTRIES(TG_SDK_TABLE_FIELD)                                                   \
    return table;                                                                               \
  }                                                                                             \
  constexpr tg_plugin_api VAR = VAR##_make<NAME, ::tegula::plugin::Omitted __VA_ARGS__>();

/// The plugin's table (as TG_SDK_DEFINE_TABLE) and its tg_plugin_query, which offers ABI 1.
#define TG_SDK_PLUGIN_TABLE(NS, NAME, ...)                                                      \
  namespace {                                                                                   \
  TG_SDK_DEFINE_TABLE(tg_sdk_table, NS, NAME, __VA_ARGS__)                                      \
  }                                                                                             \
  extern "C" TG_PLUGIN_EXPORT const tg_plugin_api* tg_plugin_query(                             \
      uint32_t host_min_abi, uint32_t host_max_abi, const char** out_refusal) {                 \
    if (host_min_abi > TG_ABI_VERSION_1 || host_max_abi < TG_ABI_VERSION_1) {                   \
      if (out_refusal) *out_refusal = "the " NAME " plugin speaks only tegula plugin ABI 1";   \
      return nullptr;                                                                           \
    }                                                                                           \
    return &tg_sdk_table;                                                                       \
  }
