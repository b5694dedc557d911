/// \file
/// Catalogue queries for the lowering.
#include "targets/MatrixQuery.h"

#include <algorithm>

namespace tegula {

static bool contains(const std::vector<DType>& list, DType t) {
  return std::find(list.begin(), list.end(), t) != list.end();
}

static bool dtypes_match(const MatrixInstruction& mi, DType a, DType b, DType acc) {
  return contains(mi.a_types, a) && contains(mi.b_types, b) && contains(mi.c_types, acc) &&
         contains(mi.d_types, acc);
}

bool instruction_matches(const MatrixInstruction& mi, DType a, DType b, DType acc, int m, int n,
                         int k) {
  return dtypes_match(mi, a, b, acc) && mi.m.contains(m) && mi.n.contains(n) && mi.k.contains(k);
}

std::vector<MmaShape> instruction_shapes(const MatrixInstruction& mi) {
  std::vector<MmaShape> out;
  for (int m : mi.m.values()) {
    for (int n : mi.n.values()) {
      for (int k : mi.k.values()) out.push_back({m, n, k});
    }
  }
  return out;
}

Symbols shape_symbols(const MmaShape& shape) {
  return {{"M", shape.m}, {"N", shape.n}, {"K", shape.k}};
}

std::vector<const MatrixInstruction*> instructions_for(const TargetDescription& target, DType a,
                                                       DType b, DType acc) {
  std::vector<const MatrixInstruction*> out;
  for (const MatrixInstruction& mi : target.matrix_instructions) {
    if (dtypes_match(mi, a, b, acc)) out.push_back(&mi);
  }
  // Per participating thread, so a warp-wide and a warpgroup-wide entry compare fairly. Ties
  // keep catalogue order: `out` points into one vector in order, so the addresses break them
  // (std::stable_sort would too, but libstdc++'s calls the deprecated get_temporary_buffer,
  // which clang 19 warns about).
  std::sort(out.begin(), out.end(), [](const MatrixInstruction* x, const MatrixInstruction* y) {
    auto rx = x->rate / x->group_threads, ry = y->rate / y->group_threads;
    return rx != ry ? rx > ry : x < y;
  });
  return out;
}

}  // namespace tegula
