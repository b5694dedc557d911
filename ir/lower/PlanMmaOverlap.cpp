// Matrix instructions in flight across iterations: where the target's instruction runs
// asynchronously in commit groups that complete in issue order (`async_groups` in its
// catalogue entry: wgmma's commit_group / wait_group), a pipelined loop need not wait for
// iteration i's gemm before iteration i + 1 starts. The backend then waits for all but the
// newest group after each gemm (iteration i - 1's is done, i's keeps running), moves the
// loop's one barrier and the issue of the next prefetch after the gemm, and waits for the last
// group after the loop. This pass decides it once, per loop, and records the gemm's body index
// on the loop (`plan.inflight`); the backend emits that and decides nothing. It runs after
// insert_barriers, on the final bodies, so that the index stays put.
//
// The rules (overlappable_gemm, MmaOverlap.h): the loop is pipelined (it prefetches copies;
// otherwise the backend emits it as a plain loop) with at least two stages (with one, the next
// iteration overwrites the tiles the pending group still reads); its body holds
// exactly one gemm, of an async_groups instruction (a second gemm's wait would retire the
// first's group anyway); the accumulator's elements are 32 bits or wider (an f16 accumulator
// travels two elements to an instruction register, unpacked into the fragment after every
// wait, so it cannot stay pending); no other statement of the body names the accumulator
// (it would read or write registers the pending group still owns); and only the loop's
// prefetched copies write the gemm's A and B tiles (they write the next stage, which the
// pending group does not read; any other write, such as a parallel loop dequantising a weight
// tile every iteration, would overwrite what the pending group still reads).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/lower/BufferUses.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/MmaOverlap.h"
#include "ir/lower/Passes.h"
#include "targets/Target.h"

namespace tegula::ir {
namespace {

/// Whether a statement or anything nested in it names the buffer.
bool names_anywhere(const Stmt& s, const std::string& name) {
  if (stmt_names_buffer(s, name)) return true;
  for (const Block& b : s.blocks)
    for (const Stmt& inner : b.stmts)
      if (names_anywhere(inner, name)) return true;
  return false;
}

/// Whether a statement or anything nested in it writes the buffer.
bool writes_anywhere(const Stmt& s, const std::string& name) {
  for (size_t i = 0; i < s.tiles.size(); ++i)
    if (s.tiles[i].buffer == name && (uint8_t(operand_access(s, i)) & uint8_t(Access::Write))) return true;
  for (const Block& b : s.blocks)
    for (const Stmt& inner : b.stmts)
      if (writes_anywhere(inner, name)) return true;
  return false;
}

const Stmt* alloc_anywhere(const Kernel& k, const std::string& name) {
  const Stmt* found = nullptr;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (!found && s.op == OpKind::Alloc && s.name == name) found = &s;
  });
  return found;
}

/// The instruction a gemm uses, when it is one of the target's that runs in groups.
const MatrixInstruction* async_instruction(const Stmt& gemm, const TargetDescription& target) {
  auto plan = get_gemm_plan(gemm);
  if (!plan.is_ok() || plan->is_fma()) return nullptr;
  const MatrixInstruction* mi = target.find_instruction(plan->inst);
  return mi && mi->async_groups ? mi : nullptr;
}

}  // namespace

int64_t overlappable_gemm(const Kernel& k, const Stmt& loop, const PipelinePlan& plan, const TargetDescription& target,
                          std::string& why) {
  why.clear();
  const std::vector<Stmt>& body = loop.body().stmts;
  std::vector<size_t> gemms;
  bool any_async = false;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i].op != OpKind::Gemm) continue;
    gemms.push_back(i);
    any_async = any_async || async_instruction(body[i], target);
  }
  if (!any_async) return -1;
  if (gemms.size() != 1) return why = "the loop body has " + std::to_string(gemms.size()) + " gemms", -1;
  if (!plan.pipelined) return why = "the loop prefetches nothing, so it runs as a plain loop", -1;
  if (plan.stages < 2) return why = "the loop runs with one stage", -1;
  const Stmt& gemm = body[gemms[0]];
  const std::string& acc = gemm.gemm_c().buffer;
  const Stmt* alloc = alloc_anywhere(k, acc);
  if (!alloc) return why = "accumulator '" + acc + "' has no alloc", -1;
  if (dtype_size(alloc->type.dtype) < 4)
    return why = "accumulator '" + acc + "' is " + dtype_name(alloc->type.dtype) +
                 ", packed two to an instruction register and unpacked after every wait",
           -1;
  for (const Stmt& s : body)
    if (&s != &gemm && names_anywhere(s, acc))
      return why = "another statement of the loop uses accumulator '" + acc + "'", -1;
  for (size_t i = 0; i < body.size(); ++i) {
    bool prefetched = std::find(plan.prefetch.begin(), plan.prefetch.end(), int64_t(i)) != plan.prefetch.end();
    if (i == gemms[0] || prefetched) continue;
    for (const std::string& operand : {gemm.gemm_a().buffer, gemm.gemm_b().buffer})
      if (writes_anywhere(body[i], operand))
        return why = "a statement of the loop other than its prefetched copies writes operand '" + operand +
                     "', which the pending group would still read",
               -1;
  }
  return int64_t(gemms[0]);
}

Status plan_mma_overlap(LowerContext& ctx) {
  Status st;
  for_each_stmt(ctx.kernel.body, [&](Stmt& loop) {
    if (!st.is_ok() || loop.op != OpKind::Pipelined) return;
    auto plan = get_pipeline_plan(loop);
    if (!plan.is_ok()) {
      st = plan.status();
      return;
    }
    std::string why;
    int64_t i = overlappable_gemm(ctx.kernel, loop, *plan, ctx.target, why);
    if (i < 0) {
      if (!why.empty()) ctx.note(where(loop) + "the gemm waits for its matrix instructions every iteration: " + why);
      return;
    }
    const Stmt& gemm = loop.body().stmts[size_t(i)];
    set_attr(loop.attrs, "plan.inflight", AttrValue::of_int(i));
    ctx.note(where(gemm) + "gemm into '" + gemm.gemm_c().buffer +
             "' stays in flight across iterations: each iteration waits for the " + "previous one's '" +
             get_gemm_plan(gemm)->inst + "' group only (async_groups)");
  });
  return st;
}

}  // namespace tegula::ir
