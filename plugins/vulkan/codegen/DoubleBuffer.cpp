// Double-buffered shared tiles for loops that load ahead into registers (Prefetch.cpp), as
// the lowering planned them (ir/lower/PlanRegisterPrefetch.cpp: plan.stages=2 on the loop,
// layout.stages=2 on each prefetched tile). A loop with one stage needs two barriers per
// iteration: one before the registers go into the tile (everyone has finished reading the
// last iteration's tile) and one after (the tile is complete). With two stages of each
// prefetched tile, iteration i reads stage i mod 2 while the registers for iteration i + 1 go
// into the other stage, so one barrier at the end of the iteration does both jobs:
//
//   load(lo); store(stage 0); barrier; load(lo + 1)
//   for i: store(i + 1 -> stage (i + 1 - lo) mod 2); load(i + 2); body reads stage (i - lo) mod 2; barrier
//
// Writing stage (i + 1) mod 2 in iteration i is safe because every invocation finished
// iteration i - 1, the last reader of that stage, before the barrier that ends it. The
// barriers the lowering put among and right after the copies are the ones this scheme
// replaces; which loops qualify (their tiles only those copies write and only the rest of the
// loop reads) and whether two stages fit the shared memory is the lowering's decision,
// checked by read_lowered.
#include <cstdint>
#include <functional>

#include "ir/IR.h"
#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

namespace {

/// The first statement after the prefetched copies and the barriers that follow them
/// (which only made the copies visible: the stage the copies now write is not read until
/// after the end-of-iteration barrier).
size_t rest_of_body(const ir::Block& body, size_t last_copy) {
  size_t j = last_copy + 1;
  while (j < body.stmts.size() && body.stmts[j].op == ir::OpKind::Barrier) ++j;
  return j;
}

}  // namespace

Status KernelGen::gen_double_buffered_loop(const ir::Stmt& s, Value lo, Value hi, std::vector<RegPrefetch>& ahead) {
  const std::string& var = s.vars[0];
  // The stage's first element in a tile: stage * (elements per stage).
  auto at_stage = [&](Value stage) {
    for (RegPrefetch& p : ahead) p.dst->stage_base = b_.mul(stage, b_.ci(int32_t(p.dst->stage_elems)));
  };
  Status st;
  auto load_all = [&](Value k) {
    for (RegPrefetch& p : ahead)
      if (st.is_ok()) st = prefetch_load(p, var, k);
  };
  auto store_all = [&] {
    for (RegPrefetch& p : ahead)
      if (st.is_ok()) st = prefetch_store(p);
  };
  // Stage 0 holds iteration lo; iteration lo + 1 is in flight into registers.
  b_.if_(b_.lt(lo, hi), [&] {
    load_all(lo);
    at_stage(b_.ci(0));
    store_all();
  });
  b_.barrier();
  Value second = b_.add(lo, b_.ci(1));
  b_.if_(b_.lt(second, hi), [&] { load_all(second); });
  TG_RETURN_IF_ERROR(st);
  size_t first_rest = rest_of_body(s.body(), ahead.back().index);
  b_.for_(lo, hi, 1, [&](Value i) {
    buf_scopes_.emplace_back();
    var_scopes_.emplace_back();
    var_scopes_.back()[var] = Var{i, 0, T::I32};
    Value stage = b_.bitcast(b_.band(b_.bitcast(b_.sub(i, lo), T::U32), b_.cu(1)), T::I32);
    Value next = b_.add(i, b_.ci(1));
    b_.if_(b_.lt(next, hi), [&] {
      at_stage(b_.bitcast(b_.bxor(b_.bitcast(stage, T::U32), b_.cu(1)), T::I32));
      store_all();
      Value after = b_.add(i, b_.ci(2));
      b_.if_(b_.lt(after, hi), [&] { load_all(after); });
    });
    at_stage(stage);
    const auto& stmts = s.body().stmts;
    for (size_t j = first_rest; j < stmts.size() && st.is_ok(); ++j) st = gen_stmt(stmts[j]);
    b_.barrier();
    buf_scopes_.pop_back();
    var_scopes_.pop_back();
  });
  for (RegPrefetch& p : ahead) p.dst->stage_base = Value{};
  return st;
}

}  // namespace tegula::vulkan
