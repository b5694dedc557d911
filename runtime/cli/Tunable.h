/// \file
/// Kernels with tunables (ir/Tunables.h) on the command line: which instance a command works
/// on, and the ranking `lower` and `tune` show.
#pragma once

#include <map>
#include <string>

#include "core/Status.h"
#include "ir/IR.h"
#include "ir/Tunables.h"
#include "ir/schedule/Rank.h"

namespace tegula::cli {

/// The kernel a command works on. Without tunables: the kernel (`tune_text` must be empty).
/// With tunables: the instance `tune_text` names ("BM=128,BN=256"), else the first binding
/// the verifier accepts, which is enough for what does not depend on the binding (the
/// signature, the inputs). *space gets the kernel's tune space (empty without tunables).
Result<ir::Kernel> parse_cli_kernel(const std::string& text, const std::string& file, const std::string& tune_text,
                                    ir::TuneSpace* space);

/// "M=4096,N=4096": a value for every shape symbol of `k`; symbols not given take
/// `fallback` (0: an error naming them).
Result<std::map<std::string, int64_t>> parse_shape(const ir::Kernel& k, const std::string& text, int64_t fallback);

/// The lowering options a launch at `shape` with aligned tensors selects: each symbol's
/// power-of-two divisor (at most 16), as the runtime computes it.
ir::LowerOptions launch_lower_options(const std::map<std::string, int64_t>& shape, int64_t raster_group);

}  // namespace tegula::cli
