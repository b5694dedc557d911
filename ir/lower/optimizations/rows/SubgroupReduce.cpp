// Row: reductions across threads by subgroup shuffles.
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"

namespace tegula::ir::optimizations {
namespace {

// The plan depends on the subgroup's width alone (LowerReductions.cpp): the host CPU's
// subgroup is the lanes of a vector register, shuffled by vector permutes.
std::string not_applicable(const TargetDescription& t) {
  if (t.subgroup_width > 1) return "";
  return "subgroup_width " + std::to_string(t.subgroup_width) + ": partial sums meet in shared memory";
}

Evidence detect(const LowerResult& r) {
  const Stmt* red =
      find_stmt(r.kernel, [](const Stmt& s) { return s.op == OpKind::Reduce && find_attr(s.attrs, "plan.shuffle"); });
  if (!red) return {false, absent(r, "no reduce has plan.shuffle", "reduce")};
  return {true,
          marker(*red, "plan.shuffle") + " (xor offsets within a subgroup), plan.kind=" + attr_text(*red, "plan.kind")};
}

}  // namespace

const Optimization& subgroup_reduce() {
  static const Optimization row = {
      "subgroup_reduce",
      "subgroup shuffle reductions",
      "Threads that hold partial sums of one output element combine them by xor shuffles within the subgroup, without "
      "shared memory or barriers.",
      R"(kernel subgroup_reduce(X: f32[4, 512], Y: f32[4]) grid(1) threads(128) {
  alloc xs: fragment f32[4, 512]
  alloc acc: fragment f32[4]
  copy X, xs
  reduce xs, acc, op=sum, axis=1
  copy acc, Y
}
)",
      not_applicable,
      nullptr,
      detect};
  return row;
}

}  // namespace tegula::ir::optimizations
