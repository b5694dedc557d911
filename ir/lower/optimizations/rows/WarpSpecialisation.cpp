// Row: warp specialisation (producer warps that only copy, consumer warps that only compute).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  if (t.has_feature(Feature::BulkTensorCopy)) return "";
  return "no bulk_tensor_copy feature: a producer warp needs a copy engine that completes on mbarriers";
}

}  // namespace

const Optimization& warp_specialisation() {
  static const Optimization row = {
      "warp_specialisation",
      "warp specialisation",
      "Some warps only issue the bulk copies of a pipelined loop and others only compute, synchronised by mbarriers "
      "per "
      "stage, with registers moved to the consumers (setmaxnreg).",
      kPipelinedGemm,
      not_applicable,
      "the lowering gives every warp the same program: copies and gemms are issued by the same threads",
      nullptr};
  return row;
}

}  // namespace tegula::ir::optimizations
