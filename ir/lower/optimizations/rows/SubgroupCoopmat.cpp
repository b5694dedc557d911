// Row: subgroup cooperative matrices (SPV_KHR_cooperative_matrix: opaque per-subgroup matrices).
#include "ir/lower/optimizations/rows/GemmRows.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  if (has_instruction(t, InstructionKind::Coopmat, GroupScope::Subgroup)) return "";
  return "no subgroup-scope coopmat instruction in the catalogue (the device reports none)";
}

Evidence detect(const LowerResult& r) {
  Evidence e = gemm_kind_is(r, "coopmat");
  if (!e.found) return e;
  const Stmt* acc = find_stmt(r.kernel, [](const Stmt& s) { return s.op == OpKind::Alloc && find_attr(s.attrs, "layout.opaque"); });
  if (!acc) return {false, "the gemm is coopmat but no fragment has layout.opaque"};
  return {true, e.marker + "; " + marker(*acc, "layout.opaque") + " on '" + acc->name + "', groups " + attr_text(*acc, "layout.groups")};
}

}  // namespace

const Optimization& subgroup_coopmat() {
  static const Optimization row = {
      "subgroup_coopmat", "subgroup cooperative matrices",
      "The gemm's accumulator is an opaque matrix per subgroup (Vulkan's cooperative matrices), A and B loaded from shared "
      "memory as the instruction's matrices; the driver picks the instruction underneath.",
      kPlainGemmF16, not_applicable, nullptr, detect};
  return row;
}

}  // namespace tegula::ir::optimizations
