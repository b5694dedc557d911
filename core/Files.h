/// \file
/// File helpers that never leave a half-written file behind: whole-file reads, and writes
/// that go to a temporary file in the same folder and are renamed into place.
#pragma once

#include <string>

#include "core/Status.h"

namespace tegula {

Result<std::string> read_file(const std::string& path);
/// Write `data` to `path` atomically (temporary file, fsync, rename).
Status write_file_atomic(const std::string& path, const std::string& data);
/// mkdir -p.
Status make_dirs(const std::string& path);
bool file_exists(const std::string& path);

}  // namespace tegula
