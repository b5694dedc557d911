/// \file
/// What a plugin that declares TG_CONCURRENT_COMPILE promises, checked: compiles of different
/// kernels started together on their own threads each give the bytes a compile on one thread
/// gives, and the executables load together on their own threads. A test then launches them
/// to see each computes its own kernel. Failures are Status values naming the kernel.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/Status.h"
#include "plugins/support/testing/PluginHarness.h"

namespace tegula::plugin_testing {

/// Run work(0) .. work(count - 1), each on its own thread, released together once every
/// thread has started (so the calls overlap); returns when all have finished.
void run_together(size_t count, const std::function<void(size_t)>& work);

/// Compile each of `lowered` (IR texts, as a host hands them over) once on this thread, then
/// all at once, each on its own thread released together, and compare the bytes; then load
/// the second compile's executables, all at once. The executables come back in the order of
/// `lowered`. The plugin must declare TG_CONCURRENT_COMPILE (an error otherwise: calling a
/// plugin that does not from several threads breaks the ABI's rules).
Result<std::vector<Executable>> compile_and_load_concurrently(Device& device, const std::vector<std::string>& lowered);

/// The whole check on `kernels` small kernels of different block sizes, each adding its own
/// constant (Y = X * a + b + i over 1000 elements, a tail in every block size), lowered for
/// `target` (the description the host would compile for): compiled and loaded side by side
/// (compile_and_load_concurrently), then launched, each on outputs poisoned first, and every
/// element checked.
Status check_concurrent_compile(Device& device, const TargetDescription& target, int kernels = 6);

}  // namespace tegula::plugin_testing
