/// \file
/// Blobs (tg_blob: executables, descriptions) whose bytes are a std::string the plugin owns,
/// written once: handing one out and releasing it again in blob_release. The string never
/// leaves the plugin: the host sees data and size, and opaque comes back to the same .so.
#pragma once

#include <string>

#include "plugins/abi/tegula_plugin.h"

namespace tegula::plugin {

/// Fill `out` (whose struct_size the caller has checked) with `bytes`; the blob owns them
/// until release_string_blob.
void give_string_blob(std::string bytes, tg_blob* out);

/// Free the bytes give_string_blob handed out and clear the blob; NULL is ignored.
void release_string_blob(tg_blob* blob);

}  // namespace tegula::plugin
