/// \file
/// Answering device_properties by the ABI's rule for appended fields: a host built against
/// an older header passes a smaller tg_device_properties (at least
/// TG_DEVICE_PROPERTIES_SIZE_1), and the plugin writes only the fields that size covers,
/// answering the size it filled.
#pragma once

#include <algorithm>
#include <cstddef>

#include "plugins/abi/tegula_plugin.h"

namespace tegula::plugin {

/// Whether `out` has room for the first release's fields (the ones every plugin fills).
inline bool device_properties_fit(const tg_device_properties* out) {
  return out && out->struct_size >= TG_DEVICE_PROPERTIES_SIZE_1;
}

/// The size to answer: the caller's, up to this header's.
inline void answer_device_properties_size(tg_device_properties* out) {
  out->struct_size = std::min(out->struct_size, sizeof(tg_device_properties));
}

/// Sets out_of_range where the (answered) size covers it.
inline void set_out_of_range(tg_device_properties* out, tg_out_of_range behaviour) {
  if (out->struct_size >= offsetof(tg_device_properties, out_of_range) + sizeof(out->out_of_range)) out->out_of_range = behaviour;
}

}  // namespace tegula::plugin
