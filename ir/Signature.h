/// \file
/// A kernel's launch signature evaluated for one launch: its arguments as the interpreter and
/// launch validation see them (ir::Arg), the grid its grid expressions give and the bytes each
/// tensor parameter needs. What the runtime, the plugins' launch validation
/// (plugins/support/LaunchCheck.h) and the interpreter share, apart from the interpreter.
///
/// Launch arguments follow the kernel's launch signature: the parameters in order (a tensor
/// is a pointer to its bytes, row-major, in its dtype's encoding; a scalar is a number),
/// then one integer per shape symbol in order of first appearance (Kernel::symbols()).
#pragma once

#include <cstdint>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

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

/// The most blocks one launch may run, on every device (each computes the product in int64
/// and would run zero blocks, or wrap, past it): 2^48 blocks at a nanosecond each take three
/// days.
inline constexpr int64_t kMaxGridBlocks = int64_t(1) << 48;

/// Refuses a grid of more than kMaxGridBlocks blocks (a grid with a 0 runs nothing and is
/// fine), located at `loc`.
Status check_grid_blocks(const std::vector<int64_t>& grid, SourceLoc loc = {});

/// Block counts of a launch, evaluated from the kernel's grid expressions: each dimension in
/// [0, 2^31], at most kMaxGridBlocks in all.
Result<std::vector<int64_t>> launch_grid(const Kernel& k, const std::vector<Arg>& args);

/// Bytes the tensor parameter `param_index` needs for these arguments.
Result<uint64_t> tensor_bytes(const Kernel& k, size_t param_index, const std::vector<Arg>& args);

}  // namespace tegula::ir
