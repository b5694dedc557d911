/// \file
/// Answering get_info by the ABI's rule for appended fields: a host built against an older
/// header passes a smaller tg_plugin_info (at least TG_PLUGIN_INFO_SIZE_1), and the plugin
/// writes only the fields that size covers, answering the size it filled.
#pragma once

#include <algorithm>
#include <cstddef>

#include "plugins/abi/tegula_plugin.h"

namespace tegula::plugin {

/// Whether `out` has room for the first release's fields (the ones every plugin fills).
inline bool plugin_info_fits(const tg_plugin_info* out) { return out && out->struct_size >= TG_PLUGIN_INFO_SIZE_1; }

/// The size to answer: the caller's, up to this header's.
inline void answer_plugin_info_size(tg_plugin_info* out) { out->struct_size = std::min(out->struct_size, sizeof(tg_plugin_info)); }

/// Sets concurrency (TG_CONCURRENT_* bits) where the (answered) size covers it.
inline void set_concurrency(tg_plugin_info* out, uint32_t bits) {
  if (out->struct_size >= offsetof(tg_plugin_info, reserved) + sizeof(out->reserved)) {
    out->concurrency = bits;
    out->reserved = 0;
  }
}

}  // namespace tegula::plugin
