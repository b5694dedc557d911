// Row: warpgroup matrix instructions (wgmma) (a gemm on the target's wgmma instructions).
#include "ir/lower/optimizations/rows/GemmRows.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) { return lacks_instruction(t, InstructionKind::Wgmma); }

Evidence detect(const LowerResult& r) { return gemm_kind_is(r, "wgmma"); }

}  // namespace

const Optimization& wgmma() {
  static const Optimization row = {"wgmma",
                                   "warpgroup matrix instructions (wgmma)",
                                   "The gemm runs on wgmma: four warps issue one asynchronous instruction that reads A "
                                   "and B from shared memory through descriptors.",
                                   kPipelinedGemm,
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
