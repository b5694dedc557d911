// Row: bounds tests dropped where index ranges prove a tile inside its tensor.
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription&) { return ""; }

Evidence detect(const LowerResult& r) {
  const Stmt* c = find_stmt(r.kernel, [](const Stmt& s) { return find_attr(s.attrs, "plan.inbounds") != nullptr; });
  if (!c) return {false, absent(r, "no tile op has plan.inbounds", "in bounds")};
  return {true, marker(*c, "plan.inbounds") + " on " + op_info(c->op).keyword + "; " + log_line(r, "in bounds")};
}

}  // namespace

const Optimization& bounds_elision() {
  static const Optimization row = {
      "bounds_elision",
      "bounds tests proven away",
      "Where the ranges of block indices and loop variables prove every element of a tile inside its tensor, the copy "
      "carries the fact (plan.inbounds) and backends drop the per-element bounds test.",
      kPipelinedGemm,
      not_applicable,
      nullptr,
      detect};
  return row;
}

}  // namespace tegula::ir::optimizations
