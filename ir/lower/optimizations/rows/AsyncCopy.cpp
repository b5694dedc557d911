// Row: asynchronous copies into shared memory (cp.async) in a pipelined loop.
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) { return lacks_feature(t, Feature::AsyncCopy); }

Evidence detect(const LowerResult& r) {
  const Stmt* c = find_stmt(
      r.kernel, [](const Stmt& s) { return s.op == OpKind::Copy && stmt_attr_ident(s, "plan.engine") == "async"; });
  if (!c) return {false, absent(r, "no copy has plan.engine=async", "copy into 'Ks'")};
  return {true, marker(*c, "plan.engine") + " on copy into '" + c->copy_dst().buffer + "'"};
}

}  // namespace

// The copies read a view of a 3-D tensor, which the bulk engine is not chosen for
// (CopyEngines.cpp), so targets with both engines show the asynchronous one here.
const Optimization& async_copy() {
  static const Optimization row = {
      "async_copy",
      "asynchronous copy (cp.async)",
      "Copies from global into shared memory issued by each thread without waiting (cp.async on NVIDIA), so a "
      "pipelined "
      "loop's next tiles load while the current ones are used.",
      R"(kernel async_copy(Q: f16[4, 64, 64], K: f16[4, 256, 64], S: f32[4, 64, 256]) grid(4) threads(128) {
  alloc Qs: shared f16[64, 64]
  alloc Ks: shared f16[64, 64]
  alloc Acc: fragment f32[64, 64]
  copy Q[bx, 0, 0], Qs
  pipelined j in 0 .. 4, stages=2 {
    copy K[bx, j * 64, 0], Ks
    gemm Qs, Ks, Acc, trans_b=true
    copy Acc, S[bx, 0, j * 64]
  }
}
)",
      not_applicable,
      nullptr,
      detect};
  return row;
}

}  // namespace tegula::ir::optimizations
