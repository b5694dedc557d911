// Row: workgroup cooperative matrices (VK_NV_cooperative_matrix2: one matrix per block,
// operands loaded straight from the tensors).
#include "ir/lower/optimizations/rows/GemmRows.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  if (has_instruction(t, InstructionKind::Coopmat, GroupScope::Cta)) return "";
  return "no workgroup-scope (cta) coopmat instruction in the catalogue (the device offers no "
         "VK_NV_cooperative_matrix2)";
}

Evidence detect(const LowerResult& r) {
  Evidence e = gemm_kind_is(r, "coopmat");
  if (!e.found) return e;
  const Stmt* g = first_gemm(r);
  if (attr_text(*g, "mma.a") != "global" || attr_text(*g, "mma.b") != "global")
    return {false, "the coopmat gemm does not load its operands from the tensors: " + gemm_choice(r)};
  const Stmt* fwd =
      find_stmt(r.kernel, [](const Stmt& s) { return s.op == OpKind::Copy && find_attr(s.attrs, "plan.forward"); });
  return {true, e.marker + ", mma.a=global, mma.b=global" +
                    (fwd ? "; " + marker(*fwd, "plan.forward") + " on the copy into '" + fwd->copy_dst().buffer + "'"
                         : std::string())};
}

}  // namespace

const Optimization& workgroup_coopmat() {
  static const Optimization row = {
      "workgroup_coopmat",
      "workgroup cooperative matrices",
      "One cooperative matrix per block (VK_NV_cooperative_matrix2): the gemm loads A and B from the tensors by tensor "
      "addressing, so the kernel's shared copies of them are forwarded away.",
      kPlainGemmF16,
      not_applicable,
      nullptr,
      detect};
  return row;
}

}  // namespace tegula::ir::optimizations
