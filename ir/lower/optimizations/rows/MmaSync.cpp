// Row: warp matrix instructions (mma.sync) (a gemm on the target's mma_sync instructions).
#include "ir/lower/optimizations/rows/GemmRows.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) { return lacks_instruction(t, InstructionKind::MmaSync); }

Evidence detect(const LowerResult& r) { return gemm_kind_is(r, "mma_sync"); }

}  // namespace

const Optimization& mma_sync() {
  static const Optimization row = {"mma_sync",
                                   "warp matrix instructions (mma.sync)",
                                   "The gemm runs on a warp's mma.sync tensor-core instructions, operands loaded from "
                                   "shared memory into the instruction's register layout.",
                                   kSmallGemmF16,
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
