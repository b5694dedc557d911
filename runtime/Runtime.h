/// \file
/// Opening and closing a runtime: discovery, loading, device enumeration (the C API's
/// tegula_runtime_open / tegula_runtime_close are thin wrappers).
#pragma once

#include "core/Status.h"
#include "runtime/Discovery.h"
#include "runtime/Objects.h"

namespace tegula::runtime {

/// The manifests a runtime opened with `options` would load, read without loading any
/// library (the conformance runner loads each plugin in its own worker from this list).
Discovery discover_for_options(const tegula_runtime_options& options, const Log& log);

Result<tegula_runtime*> open_runtime(const tegula_runtime_options& options);
void close_runtime(tegula_runtime* runtime);

}  // namespace tegula::runtime
