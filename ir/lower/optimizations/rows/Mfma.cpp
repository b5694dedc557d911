// Row: wave matrix instructions (MFMA) (a gemm on the target's mfma instructions).
#include "ir/lower/optimizations/rows/GemmRows.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) { return lacks_instruction(t, InstructionKind::Mfma); }

Evidence detect(const LowerResult& r) { return gemm_kind_is(r, "mfma"); }

}  // namespace

const Optimization& mfma() {
  static const Optimization row = {
      "mfma",
      "wave matrix instructions (MFMA)",
      "The gemm runs on AMD's MFMA instructions, a wave's registers holding the operand and accumulator fragments.",
      kSmallGemmF16,
      not_applicable,
      nullptr,
      detect};
  return row;
}

}  // namespace tegula::ir::optimizations
