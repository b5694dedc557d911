/// \file
/// Private: the built-in description files as compiled into the library. The definitions
/// are generated at build time by cmake/EmbedDescriptions.cmake from descriptions/*.json.
#pragma once

#include <cstddef>

namespace tegula {

struct EmbeddedDescription {
  const char* name;  ///< the file name without ".json"
  const char* data;  ///< the file's bytes (not NUL-terminated as far as `size` goes)
  size_t size;
};

/// Sorted by name.
extern const EmbeddedDescription kEmbeddedDescriptions[];
extern const size_t kEmbeddedDescriptionCount;

}  // namespace tegula
