// Row: bulk tensor copies (TMA) completing on mbarriers.
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) { return lacks_feature(t, Feature::BulkTensorCopy); }

Evidence detect(const LowerResult& r) {
  const Stmt* c = find_stmt(
      r.kernel, [](const Stmt& s) { return s.op == OpKind::Copy && stmt_attr_ident(s, "plan.engine") == "bulk"; });
  if (!c) return {false, absent(r, "no copy has plan.engine=bulk", "copy into 'As'")};
  const Stmt* loop = find_stmt(r.kernel, [](const Stmt& s) { return find_attr(s.attrs, "plan.barriers") != nullptr; });
  if (!loop) return {false, "a copy has plan.engine=bulk but no loop has mbarriers (plan.barriers)"};
  return {true, marker(*c, "plan.engine") + " on copy into '" + c->copy_dst().buffer + "'; " +
                    marker(*loop, "plan.barriers") + " (one mbarrier per stage)"};
}

}  // namespace

const Optimization& bulk_tensor_copy() {
  static const Optimization row = {"bulk_tensor_copy",
                                   "bulk tensor copy (TMA) with mbarriers",
                                   "One thread hands a whole tile copy to the tensor copy engine, which signals an "
                                   "mbarrier per pipeline stage when the "
                                   "bytes have landed; no thread computes addresses.",
                                   kPipelinedGemm,
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
