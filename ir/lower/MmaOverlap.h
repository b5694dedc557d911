/// \file
/// When a pipelined loop's gemm may stay in flight while the next iteration starts
/// (PlanMmaOverlap.cpp says what that means and why the rules are these), shared by the pass
/// that decides it (plan.inflight) and by the lowered-form check that refuses a forged one,
/// so the two cannot disagree.
#pragma once

#include <cstdint>
#include <string>

#include "ir/IR.h"
#include "ir/lower/Lowered.h"

namespace tegula {
struct TargetDescription;
}

namespace tegula::ir {

/// The index in `loop`'s body of the gemm whose matrix instructions may stay in flight across
/// iterations under the loop's pipeline plan `plan`, or -1. With -1, `why` says why not; it
/// is empty when the body has no gemm of an instruction that runs in asynchronous groups
/// (MatrixInstruction::async_groups), so that there is nothing to explain.
int64_t overlappable_gemm(const Kernel& k, const Stmt& loop, const PipelinePlan& plan, const TargetDescription& target,
                          std::string& why);

}  // namespace tegula::ir
