/// \file
/// The reference interpreter: runs a verified kernel on host memory. Arithmetic is float64;
/// every store rounds to the destination's dtype (core/DType.h). This is the oracle every
/// backend is checked against, so it favours being obviously right over being fast, and it
/// reports (never crashes on) out-of-bounds element accesses, division by zero, bad
/// arguments and grids. Its arguments, and the grid and tensor sizes they give, are the
/// launch signature's (ir/Signature.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"
#include "ir/Signature.h"

namespace tegula {
struct TargetDescription;
}

namespace tegula::ir {

struct InterpretOptions {
  /// Run only these blocks (flattened x + gx*(y + gy*z)); empty means every block.
  std::vector<int64_t> blocks;
  /// For a lowered kernel: the target it was lowered for (its matrix instructions define
  /// how gemms fill registers). When null, the built-in description named by lower.target.
  const TargetDescription* target = nullptr;
};

/// Run `k` (which must have passed verify()) over its whole grid.
Status interpret(const Kernel& k, const std::vector<Arg>& args, const InterpretOptions& options = {});

}  // namespace tegula::ir
