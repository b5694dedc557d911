// Row: stmatrix (accumulator fragments stored to shared memory 8x8 matrices at a time).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) { return lacks_feature(t, Feature::Stmatrix); }

}  // namespace

const Optimization& stmatrix() {
  static const Optimization row = {
      "stmatrix",
      "stmatrix accumulator stores",
      "A warp stores accumulator fragments into shared memory as 8x8 matrices (stmatrix), for epilogues that go "
      "through "
      "shared memory (a bulk store, a layout change).",
      kPipelinedGemm,
      not_applicable,
      "the lowering plans no stmatrix store and no backend emits one: fragments go to shared memory element by element",
      nullptr};
  return row;
}

}  // namespace tegula::ir::optimizations
