// Row: rasterised block order (blocks of a 2-D grid launched in groups of rows, for L2 reuse).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription&) { return ""; }

Evidence detect(const LowerResult& r) {
  const Attr* a = find_attr(r.kernel.attrs, "lower.raster");
  if (!a) return {false, absent(r, "the kernel has no lower.raster", "rasteris")};
  return {true, "lower.raster=" + std::to_string(a->value.i) + " (compile option raster_group)"};
}

}  // namespace

const Optimization& rasterised_order() {
  static const Optimization row = {"rasterised_order",
                                   "rasterised block order",
                                   "With the raster_group compile option, the blocks of a 2-D grid run in groups of "
                                   "rows, so blocks in flight together "
                                   "share operand tiles in L2 (a bijection of the grid: results do not change).",
                                   kPipelinedGemm,
                                   not_applicable,
                                   nullptr,
                                   detect,
                                   /*raster_group=*/8};
  return row;
}

}  // namespace tegula::ir::optimizations
