// Double-buffered shared tiles for loops that load ahead into registers (Prefetch.cpp). A
// loop with one stage needs two barriers per iteration: one before the registers go into
// the tile (everyone has finished reading the last iteration's tile) and one after (the
// tile is complete). With two stages of each prefetched tile, iteration i reads stage
// i mod 2 while the registers for iteration i + 1 go into the other stage, so one barrier at
// the end of the iteration does both jobs:
//
//   load(lo); store(stage 0); barrier; load(lo + 1)
//   for i: store(i + 1 -> stage (i + 1 - lo) mod 2); load(i + 2); body reads stage (i - lo) mod 2; barrier
//
// Writing stage (i + 1) mod 2 in iteration i is safe because every invocation finished
// iteration i - 1, the last reader of that stage, before the barrier that ends it.
//
// It applies to loops declared with stages >= 2 (two stages are what one set of registers
// can feed; more would only cost shared memory) whose prefetched tiles only those copies
// write and only the rest of the loop body reads (nothing else in the kernel), so which
// stage holds what is invisible outside the loop. The generator retries with one stage
// when two do not fit the target's shared memory (generate_shader). On the H200 two stages
// help some block tiles and cost others their second workgroup per SM, which is why the
// kernel's `stages` decides (bench/results/vulkan-h200-2026-11-30.md).
#include <cstdint>
#include <functional>

#include "ir/lower/Lowered.h"
#include "ir/Analysis.h"
#include "ir/lower/Context.h"
#include "ir/lower/SharedLayout.h"
#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

namespace {

/// The statement and every statement nested in it.
void each_in(const ir::Stmt& s, const std::function<void(const ir::Stmt&)>& fn) {
  fn(s);
  for (const ir::Block& b : s.blocks) ir::for_each_stmt(b, fn);
}

/// The first statement after the prefetched copies and the barriers that follow them
/// (which only made the copies visible: the stage the copies now write is not read until
/// after the end-of-iteration barrier).
size_t rest_of_body(const ir::Block& body, size_t last_copy) {
  size_t j = last_copy + 1;
  while (j < body.stmts.size() && body.stmts[j].op == ir::OpKind::Barrier) ++j;
  return j;
}

}  // namespace

void KernelGen::find_double_buffered() {
  std::map<std::string, const ir::Stmt*> allocs;
  ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) {
    if (s.op == ir::OpKind::Alloc) allocs[s.name] = &s;
  });
  ir::for_each_stmt(k_.body, [&](const ir::Stmt& loop) {
    // `stages` is how many copies of its tiles the kernel's author gave the loop.
    if (loop.op != ir::OpKind::Pipelined || ir::stmt_attr_int(loop, "stages") < 2) return;
    if (auto plan = ir::get_pipeline_plan(loop); !plan.is_ok() || !plan->prefetch.empty()) return;
    std::vector<size_t> copies = prefetchable_copies(loop);
    if (copies.empty()) return;
    const auto& body = loop.body().stmts;
    std::set<std::string> tiles;
    std::set<const ir::Stmt*> own;
    for (size_t j : copies) {
      const ir::Stmt& c = body[j];
      const std::string& t = c.copy_dst().buffer;
      // One copy per tile, writing it from its origin (the store before the loop has no
      // loop variable to place it by).
      if (tiles.count(t) || !allocs.count(t)) return;
      for (const ir::Expr& o : c.copy_dst().offsets)
        if (!ir::const_int(o)) return;
      auto layout = ir::get_shared_layout(allocs[t]->attrs);
      if (!layout.is_ok() || layout->stages > 1 || layout->swizzle_bits || layout->block) return;
      tiles.insert(t);
      own.insert(&c);
    }
    // The rest of the body may read the tiles but not write them; nothing outside the loop
    // (but their allocs) may name them.
    size_t first_rest = rest_of_body(loop.body(), copies.back());
    for (size_t j = 0; j < first_rest; ++j)
      if (!own.count(&body[j]) && body[j].op != ir::OpKind::Barrier) return;
    std::set<std::string> rest_writes;
    for (size_t j = first_rest; j < body.size(); ++j) {
      std::set<std::string> w = ir::written_buffers(body[j]);
      rest_writes.insert(w.begin(), w.end());
    }
    bool ok = true;
    for (const std::string& t : tiles) ok = ok && !rest_writes.count(t);
    std::set<const ir::Stmt*> inside;
    each_in(loop, [&](const ir::Stmt& s) { inside.insert(&s); });
    ir::for_each_stmt(k_.body, [&](const ir::Stmt& s) {
      if (inside.count(&s) || s.op == ir::OpKind::Alloc) return;
      for (const std::string& t : tiles) ok = ok && !stmt_mentions(s, t);
    });
    if (!ok) return;
    double_buffered_loops_.insert(&loop);
    double_buffered_.insert(tiles.begin(), tiles.end());
  });
}

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
