/// \file
/// File helpers that never leave a half-written file behind: whole-file reads, and writes
/// that go to a temporary file in the same folder and are renamed into place.
#pragma once

#include <cstdint>
#include <string>

#include "core/Status.h"

namespace tegula {

/// Inputs are read whole, so each has a size bound: a runaway or hostile file is an error
/// that names it, not an allocation failure. Kernel sources use kMaxSourceBytes.
inline constexpr uint64_t kMaxReadBytes = uint64_t(256) << 20;
inline constexpr uint64_t kMaxSourceBytes = uint64_t(16) << 20;

/// The whole of a regular file of at most `max_bytes`. A FIFO, device, socket or folder is
/// refused without blocking (a FIFO with no writer would hang the open).
Result<std::string> read_file(const std::string& path, uint64_t max_bytes = kMaxReadBytes);
/// An fd opened read-only on a regular file, never blocking in open().
Result<int> open_regular_file(const std::string& path);
/// Write `data` to `path` atomically (temporary file, fsync, rename).
Status write_file_atomic(const std::string& path, const std::string& data);
/// mkdir -p.
Status make_dirs(const std::string& path);
bool file_exists(const std::string& path);

}  // namespace tegula
