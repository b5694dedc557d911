// Row: a gemm left in flight across pipelined iterations (wgmma's asynchronous groups).
#include "ir/lower/optimizations/rows/GemmRows.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  for (const MatrixInstruction& mi : t.matrix_instructions)
    if (mi.async_groups) return "";
  return "no matrix instruction runs in asynchronous groups (async_groups in the catalogue)";
}

Evidence detect(const LowerResult& r) {
  const Stmt* loop = find_stmt(r.kernel, [](const Stmt& s) { return find_attr(s.attrs, "plan.inflight") != nullptr; });
  if (!loop) return {false, absent(r, "no loop has plan.inflight", "waits for its matrix instructions")};
  return {true, marker(*loop, "plan.inflight") + ": the gemm's group stays in flight while the next iteration starts"};
}

}  // namespace

const Optimization& wgmma_overlap() {
  static const Optimization row = {"wgmma_overlap",
                                   "matrix instructions kept in flight",
                                   "In a pipelined loop, the gemm's asynchronous group of iteration i keeps running "
                                   "while iteration i + 1's copies are "
                                   "issued; the loop waits for all but the newest group.",
                                   kPipelinedGemm,
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
