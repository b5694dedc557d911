/// \file
/// Questions the lowering asks of a catalogue: does an entry compute a given tile with
/// given dtypes, which concrete shapes does an entry allow, and which entries fit a GEMM's
/// dtypes, best first.
#pragma once

#include <vector>

#include "targets/Target.h"

namespace tegula {

struct MmaShape {
  int m = 0;
  int n = 0;
  int k = 0;
  bool operator==(const MmaShape& other) const = default;
};

/// True when `mi` computes exactly an m x n x k tile from A of dtype a and B of dtype b,
/// accumulating in acc (acc must be both an allowed C and an allowed D dtype).
bool instruction_matches(const MatrixInstruction& mi, DType a, DType b, DType acc, int m, int n,
                         int k);

/// Every concrete shape the entry allows (ranges expanded), ordered by m, then n, then k.
std::vector<MmaShape> instruction_shapes(const MatrixInstruction& mi);

/// The symbol values for a concrete shape: {{"M", m}, {"N", n}, {"K", k}}.
Symbols shape_symbols(const MmaShape& shape);

/// Entries of `target` that accept these dtypes for some shape, highest rate per
/// participating thread first (ties keep catalogue order).
std::vector<const MatrixInstruction*> instructions_for(const TargetDescription& target, DType a,
                                                       DType b, DType acc);

}  // namespace tegula
