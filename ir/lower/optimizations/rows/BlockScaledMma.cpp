// Row: block-scaled matrix instructions (MX formats: a scale per block of K).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

// The hardware families that have them: tcgen05's block-scaled kinds (sm_100a) and gfx950's
// scaled MFMA, the latter recognised by MFMA with fp8.
std::string not_applicable(const TargetDescription& t) {
  if (has_instruction(t, InstructionKind::Tcgen05)) return "";
  if (has_instruction(t, InstructionKind::Mfma) && t.has_feature(Feature::Fp8)) return "";
  return "no tcgen05 instruction and no MFMA with fp8: the hardware has no block-scaled matrix instruction";
}

}  // namespace

const Optimization& block_scaled_mma() {
  static const Optimization row = {"block_scaled_mma",
                                   "block-scaled MMA",
                                   "Matrix instructions that multiply fp8/fp6/fp4 blocks by a shared scale per 32 "
                                   "elements of K (MXFP8, MXFP4, NVFP4), "
                                   "instead of dequantising before the gemm.",
                                   kPipelinedGemm,
                                   not_applicable,
                                   "the IR has no scale operand on gemm and the catalogues list no block-scaled entry",
                                   nullptr};
  return row;
}

}  // namespace tegula::ir::optimizations
