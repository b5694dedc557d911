// Row: register prefetch (a pipelined loop staged through registers, without a copy engine).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  if (std::string why = lacks_feature(t, Feature::RegisterPrefetch); !why.empty()) return why;
  if (t.has_feature(Feature::AsyncCopy) || t.has_feature(Feature::BulkTensorCopy))
    return "the target's copy engines prefetch instead (async_copy or bulk_tensor_copy)";
  return "";
}

Evidence detect(const LowerResult& r) {
  const Stmt* c = find_stmt(
      r.kernel, [](const Stmt& s) { return s.op == OpKind::Copy && stmt_attr_ident(s, "plan.engine") == "registers"; });
  if (!c) return {false, absent(r, "no copy has plan.engine=registers", "through registers")};
  return {true, marker(*c, "plan.engine") + " on copy into '" + c->copy_dst().buffer + "'; " + log_line(r, "stage")};
}

}  // namespace

const Optimization& register_prefetch() {
  static const Optimization row = {"register_prefetch",
                                   "register prefetch",
                                   "Without a copy engine, a pipelined loop loads iteration i + 1's tiles into "
                                   "registers while iteration i computes and "
                                   "stores them into shared memory afterwards (double-buffered where two stages fit).",
                                   kPipelinedGemm,
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
