/// \file
/// The reference interpreter: runs a verified kernel on host memory. Arithmetic is float64;
/// every store rounds to the destination's dtype (core/DType.h). This is the oracle every
/// backend is checked against, so it favours being obviously right over being fast, and it
/// reports (never crashes on) out-of-bounds element accesses, division by zero, bad
/// arguments and grids.
///
/// Launch arguments follow the kernel's launch signature: the parameters in order (a tensor
/// is a pointer to its bytes, row-major, in its dtype's encoding; a scalar is a number),
/// then one integer per shape symbol in order of first appearance (Kernel::symbols()).
#pragma once

#include <cstdint>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula {
struct TargetDescription;
}

namespace tegula::ir {

struct Arg {
  enum class Kind : uint8_t { Tensor, Int, Float };
  Kind kind = Kind::Int;
  void* data = nullptr;  ///< Tensor: the first element
  uint64_t size = 0;     ///< Tensor: bytes available at data
  int64_t i = 0;
  double f = 0;

  static Arg tensor(void* data, uint64_t size) { return {Kind::Tensor, data, size, 0, 0}; }
  static Arg integer(int64_t v) { return {Kind::Int, nullptr, 0, v, 0}; }
  static Arg number(double v) { return {Kind::Float, nullptr, 0, 0, v}; }
};

/// Block counts of a launch, evaluated from the kernel's grid expressions.
Result<std::vector<int64_t>> launch_grid(const Kernel& k, const std::vector<Arg>& args);

/// Bytes the tensor parameter `param_index` needs for these arguments.
Result<uint64_t> tensor_bytes(const Kernel& k, size_t param_index, const std::vector<Arg>& args);

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
