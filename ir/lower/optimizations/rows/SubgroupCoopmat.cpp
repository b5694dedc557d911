// Row: subgroup cooperative matrices (SPV_KHR_cooperative_matrix: opaque per-subgroup matrices).
#include "ir/lower/optimizations/rows/GemmRows.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  if (has_instruction(t, InstructionKind::Coopmat, GroupScope::Subgroup)) return "";
  return "no subgroup-scope coopmat instruction in the catalogue (the device reports none)";
}

Evidence detect(const LowerResult& r) {
  Evidence e = gemm_kind_is(r, "coopmat");
  if (!e.found) return e;
  // Workgroup matrices are coopmat too; a subgroup one loads A and B from shared memory
  // into its matrices (mma.a = registers), a workgroup one from the tensors (global).
  const Stmt* g = first_gemm(r);
  if (attr_text(*g, "mma.a") != "registers")
    return {false, "the coopmat gemm is not a subgroup one: " + gemm_choice(r)};
  const Stmt* acc =
      find_stmt(r.kernel, [](const Stmt& s) { return s.op == OpKind::Alloc && find_attr(s.attrs, "layout.opaque"); });
  if (!acc) return {false, "the gemm is coopmat but no fragment has layout.opaque"};
  return {true, e.marker + "; " + marker(*acc, "layout.opaque") + " on '" + acc->name + "', groups " +
                    attr_text(*acc, "layout.groups")};
}

}  // namespace

const Optimization& subgroup_coopmat() {
  static const Optimization row = {
      "subgroup_coopmat", "subgroup cooperative matrices",
      "The gemm's accumulator is an opaque matrix per subgroup (Vulkan's cooperative matrices), A and B loaded from "
      "shared "
      "memory as the instruction's matrices; the driver picks the instruction underneath.",
      // The division keeps workgroup matrices (maps of + - * only) out where a device has both.
      R"(kernel subgroup_coopmat(A: f16[M, K], B: f16[K, N], C: f32[M, N]) grid(ceildiv(N, 64), ceildiv(M, 64)) threads(128) {
  alloc As: shared f16[64, 32]
  alloc Bs: shared f16[32, 64]
  alloc Acc: fragment f32[64, 64]
  fill Acc, 0.0
  for kk in 0 .. ceildiv(K, 32) {
    copy A[by * 64, kk * 32], As
    copy B[kk * 32, bx * 64], Bs
    gemm As, Bs, Acc, accumulate=true
  }
  map Acc = Acc / 3.0
  copy Acc, C[by * 64, bx * 64]
}
)",
      not_applicable, nullptr, detect};
  return row;
}

}  // namespace tegula::ir::optimizations
