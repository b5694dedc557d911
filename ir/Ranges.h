/// \file
/// Integer ranges of index expressions, from the ranges of the variables in them (block
/// indices bounded by a constant grid, loop variables by constant bounds). Backends use
/// them to drop bounds checks that can never fail: a tile whose origin's range keeps every
/// element inside a static tensor needs no per-element test.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "ir/IR.h"

namespace tegula::ir {

/// Every value from lo to hi, both included.
struct IntRange {
  int64_t lo = 0, hi = 0;
};

using RangeMap = std::map<std::string, IntRange, std::less<>>;

/// The range of an integer expression over its variables' ranges; nullopt when it has a
/// variable without a range, a load, a non-integer literal, or an operation whose range is
/// not tracked (division and remainder only of non-negative values by positive constants).
std::optional<IntRange> expr_range(const Expr& e, const RangeMap& vars);

/// The block indices' ranges where the kernel's grid is constant: bx in [0, grid[0] - 1] ...
RangeMap grid_ranges(const Kernel& k);

}  // namespace tegula::ir
