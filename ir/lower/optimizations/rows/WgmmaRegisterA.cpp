// Row: wgmma with its A operand in registers (a fragment, e.g. attention's P).
#include "ir/lower/optimizations/rows/GemmRows.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  for (const MatrixInstruction& mi : t.matrix_instructions) {
    if (mi.kind != InstructionKind::Wgmma) continue;
    const OperandPlacement* p = mi.a.find(OperandLocation::Registers);
    if (p && p->form == OperandPlacement::Form::ThreadValue) return "";
  }
  return has_instruction(t, InstructionKind::Wgmma) ? "no wgmma instruction takes A from registers"
                                                    : lacks_instruction(t, InstructionKind::Wgmma);
}

Evidence detect(const LowerResult& r) {
  Evidence e = gemm_kind_is(r, "wgmma");
  if (!e.found) return e;
  const Stmt* g = first_gemm(r);
  if (attr_text(*g, "mma.a") != "registers") return {false, "the wgmma gemm reads A from " + attr_text(*g, "mma.a")};
  return {true, e.marker + ", mma.a=registers (A from the fragment '" + g->gemm_a().buffer +
                    "'), mma.b=" + attr_text(*g, "mma.b")};
}

}  // namespace

const Optimization& wgmma_register_a() {
  static const Optimization row = {
      "wgmma_register_a",
      "wgmma with A in registers",
      "A wgmma whose A operand is a fragment already in registers (attention's probabilities P, a dequantised tile) "
      "reads "
      "it from there, without a round trip through shared memory.",
      R"(kernel wgmma_register_a(A: f16[64, 64], B: f16[64, 64], C: f32[64, 64]) grid(1) threads(128) {
  alloc Af: fragment f16[64, 64]
  alloc Bs: shared f16[64, 64]
  alloc Acc: fragment f32[64, 64]
  copy A, Af
  copy B, Bs
  gemm Af, Bs, Acc
  copy Acc, C
}
)",
      not_applicable,
      nullptr,
      detect};
  return row;
}

}  // namespace tegula::ir::optimizations
