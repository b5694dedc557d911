/// \file
/// Opening and closing a runtime: discovery, loading, device enumeration (the C API's
/// tegula_runtime_open / tegula_runtime_close are thin wrappers).
#pragma once

#include "core/Status.h"
#include "runtime/Objects.h"

namespace tegula::runtime {

Result<tegula_runtime*> open_runtime(const tegula_runtime_options& options);
void close_runtime(tegula_runtime* runtime);

}  // namespace tegula::runtime
