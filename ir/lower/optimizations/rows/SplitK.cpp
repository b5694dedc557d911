// Row: split-K (a gemm's K range divided among blocks, partial sums combined).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription&) { return ""; }

}  // namespace

// Kernels split K themselves today (examples/mla/mla_decode_split.tile writes partials that a
// second kernel combines); the lowering never changes a kernel's grid.
const Optimization& split_k() {
  static const Optimization row = {
      "split_k",
      "split-K",
      "A gemm with few output tiles and a long K gives each block a slice of K and combines the partial sums (atomics "
      "or "
      "a second pass), so the whole device works.",
      kPipelinedGemm,
      not_applicable,
      "the lowering keeps the kernel's grid: a kernel splits K itself (examples/mla/mla_decode_split.tile)",
      nullptr};
  return row;
}

}  // namespace tegula::ir::optimizations
