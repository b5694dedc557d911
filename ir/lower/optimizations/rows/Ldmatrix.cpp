// Row: ldmatrix (register operands of a warp matrix instruction loaded 8x8 matrices at a time).
#include "ir/lower/optimizations/rows/GemmRows.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  if (std::string why = lacks_feature(t, Feature::Ldmatrix); !why.empty()) return why;
  return lacks_instruction(t, InstructionKind::MmaSync);
}

// The lowering's part is the plan that makes ldmatrix possible: an mma.sync gemm whose
// operands are loaded from shared memory into registers (mma.a/mma.b = registers) with rows
// padded for 8-row loads. The CUDA backend then emits ldmatrix wherever its simulation of
// every lane shows it delivers the catalogue's layout (plugins/cuda/codegen/Gemm.cpp): that
// last step is the backend's and does not show in the lowered form.
Evidence detect(const LowerResult& r) {
  Evidence e = gemm_kind_is(r, "mma_sync");
  if (!e.found) return e;
  const Stmt* g = first_gemm(r);
  if (attr_text(*g, "mma.a") != "registers" || attr_text(*g, "mma.b") != "registers")
    return {false, "the mma.sync gemm does not load its operands from shared memory into registers: " + gemm_choice(r)};
  return {true,
          e.marker + ", mma.a=registers, mma.b=registers from shared tiles (the CUDA backend emits ldmatrix for them)"};
}

}  // namespace

const Optimization& ldmatrix() {
  static const Optimization row = {"ldmatrix",
                                   "ldmatrix operand loads",
                                   "A warp loads a matrix instruction's register operands from shared memory as 8x8 "
                                   "matrices (ldmatrix, .trans for the "
                                   "other major order) instead of element by element.",
                                   kSmallGemmF16,
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
