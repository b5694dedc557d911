/// \file
/// Identity of the machine and files a report describes.
#pragma once

#include <string>

#include "core/Json.h"
#include "core/Status.h"

namespace tegula::conformance {

/// OS, CPU model, core count and the compiler tegula was built with.
Json host_identity();

/// SHA-256 of a file's bytes.
Result<std::string> file_sha256(const std::string& path);

/// Local time as "2026-01-31T12:34:56" (or for folder names "20260131-123456").
std::string timestamp(bool for_path = false);

}  // namespace tegula::conformance
