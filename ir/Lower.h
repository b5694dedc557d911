/// \file
/// The shared lowering pipeline: from block-level tiles to a kernel in which every
/// target-dependent decision is made (instruction choice, fragment and shared layouts,
/// thread mappings, reduction steps, pipeline stages), driven only by a target description.
/// The result is still tile IR, annotated with lowering attributes (names with a '.'), so it
/// prints, parses and runs on the reference interpreter like any kernel. Backends receive it
/// as text (TG_IR_FORMAT_LOWERED_V1) and read it back with read_lowered().
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula {
struct TargetDescription;
}

namespace tegula::ir {

struct LowerOptions {
  /// Stop after this pass (see pass_names()); empty runs the whole pipeline.
  std::string stop_after;
  /// What the launch guarantees about shape symbols: symbol -> a power of two (at most 16)
  /// that divides its value. Wider vector accesses need it; the lowered kernel records it
  /// (lower.assume) and may only be launched with values that keep it.
  std::map<std::string, int64_t> divisibility;
  /// Group this many rows of blocks together for L2 reuse (2-D grids); 0 or 1 turns it off.
  int64_t raster_group = 0;
  /// The launch guarantees that every tensor argument starts on a 16-byte boundary (its
  /// element offset a multiple of 16 bytes). Recorded as lower.tensor_align=16: backends may
  /// then drop their run-time alignment checks around vector accesses (the runtime compiles
  /// such a variant only for launches that keep it).
  bool tensors_aligned = false;
};

struct LowerResult {
  Kernel kernel;
  /// One line per decision a pass made and why (instruction choices, layouts, fallbacks).
  std::vector<std::string> log;
};

/// The pipeline's passes, in order.
const std::vector<std::string>& pass_names();

/// Whether `target` holds every dtype `k` names and its store mode (the first pass,
/// check_target_dtypes, ir/lower/CheckTargetDTypes.cpp): Unsupported at the first use of what
/// the description lacks.
Status check_kernel_dtypes(const Kernel& k, const TargetDescription& target);

/// Lower a verified kernel for a target.
Result<LowerResult> lower(const Kernel& k, const TargetDescription& target,
                          const LowerOptions& options = {});

/// Read lowered text: parse, verify (lowering attributes allowed) and check it against the
/// lowered-form contract (verify_lowered, ir/lower/Lowered.h: every annotation known, typed and
/// consistent). For tools that look at lowered text without a device.
Result<Kernel> read_lowered(std::string_view text, const std::string& source = "<lowered>");

/// The reader every backend uses: the above, and the kernel was lowered for exactly this
/// target description (name and hash) and asks for nothing it lacks (verify_lowered_for).
/// A backend that holds its result reads the plans through the typed records of
/// ir/lower/Lowered.h and need not check them again.
Result<Kernel> read_lowered(std::string_view text, const TargetDescription& target, const std::string& source = "<lowered>");
/// The same, with target_hash(target) computed once by the caller.
Result<Kernel> read_lowered(std::string_view text, const TargetDescription& target, const std::string& target_hash,
                            const std::string& source);

}  // namespace tegula::ir
