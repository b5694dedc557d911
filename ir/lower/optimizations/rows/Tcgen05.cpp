// Row: tcgen05 (sm_100a): a gemm accumulating in tensor memory.
#include "ir/lower/optimizations/rows/GemmRows.h"
#include "ir/lower/optimizations/rows/Kernels.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) { return lacks_instruction(t, InstructionKind::Tcgen05); }

Evidence detect(const LowerResult& r) {
  Evidence e = gemm_kind_is(r, "tcgen05");
  if (!e.found) return e;
  const Attr* slot = find_attr(r.kernel.attrs, "lower.tmem_slot");
  if (!slot) return {false, "the gemm is tcgen05 but the kernel has no lower.tmem_slot for its tensor-memory address"};
  return {true, e.marker + "; lower.tmem_slot=" + std::to_string(slot->value.i)};
}

}  // namespace

const Optimization& tcgen05() {
  static const Optimization row = {
      "tcgen05",
      "tensor-memory matrix instructions (tcgen05)",
      "The gemm runs on tcgen05.mma: one thread issues it, A and B come from shared memory through descriptors and the "
      "accumulator lives in tensor memory (allocated once, its address in a shared slot, completion on an mbarrier).",
      kPipelinedGemm,
      not_applicable,
      nullptr,
      detect};
  return row;
}

}  // namespace tegula::ir::optimizations
