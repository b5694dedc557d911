// Row: software pipelining (a loop's copies issued stages - 1 iterations ahead).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  if (t.has_feature(Feature::AsyncCopy) || t.has_feature(Feature::BulkTensorCopy) ||
      t.has_feature(Feature::RegisterPrefetch))
    return "";
  return "no async_copy, bulk_tensor_copy or register_prefetch feature: nothing can load ahead while the body runs";
}

Evidence detect(const LowerResult& r) {
  const Stmt* loop = find_stmt(
      r.kernel, [](const Stmt& s) { return s.op == OpKind::Pipelined && find_attr(s.attrs, "plan.prefetch"); });
  if (!loop) return {false, absent(r, "no pipelined loop has plan.prefetch", "pipelined loop")};
  return {true, marker(*loop, "plan.prefetch") + ", plan.stages=" + attr_text(*loop, "plan.stages")};
}

}  // namespace

const Optimization& software_pipelining() {
  static const Optimization row = {"software_pipelining",
                                   "software pipelining",
                                   "A pipelined loop's copies into shared memory are issued ahead (plan.prefetch) into "
                                   "staged buffers, so loads of later "
                                   "iterations overlap the computation of the current one.",
                                   kPipelinedGemm,
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
