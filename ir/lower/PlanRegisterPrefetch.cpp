// Register prefetching and double buffering: the software pipeline of a target that has no
// asynchronous copy engine but whose description claims `register_prefetch` (Vulkan).
//
// Such a target cannot issue a copy ahead and wait for it, so plan_pipelines leaves its
// pipelined loops unpipelined. It can still hide global latency: a global -> shared copy at
// the top of a pipelined loop is split into a load of iteration k + 1's elements into
// registers, issued right after iteration k stored its own, and the store of those registers
// into the shared tile where the copy stood (the first iteration's elements are loaded before
// the loop). The shared tile, the barriers and the results are those of the plain loop. A copy
// qualifies when it is one of the loop body's leading statements (barriers aside), has a free
// thread plan, is not forwarded, moves a global tensor the kernel never writes into a shared
// tile of the same dtype (the registers hold raw elements), and places both tiles with
// offsets made only of literals, variables (loop variables, block indices, scalars, symbols)
// and arithmetic, so the next iteration's origin is the same expression one step on. Such
// copies get `plan.async=true` and `plan.engine=registers`, and the loop `plan.prefetch`.
//
// A loop declared with stages >= 2 whose prefetched tiles are written only by those copies,
// each into its own tile from a constant origin, are not swizzled or blocked, are read by the
// rest of the body and named by nothing outside the loop is double-buffered: each tile gets
// two stages (`layout.stages=2`, the loop `plan.stages=2`) and iteration i reads stage i mod 2
// while the registers for iteration i + 1 go into the other, so one barrier per iteration
// replaces the two around the store (the backend emits that scheme; which stage holds what is
// invisible outside the loop). Two stages are what one set of registers can feed; more would
// only cost shared memory. When the second stages do not fit what the target leaves the
// kernel (as place_shared, the next pass, will place it), every loop keeps one stage
// (`plan.stages=1`): on the H200 two stages help some block tiles and cost others their
// second workgroup per SM, which is why the kernel's `stages` asks for it
// (bench/results/vulkan-h200-2026-11-30.md).
//
// The copies stay synchronous statements of the body, so insert_barriers (after this pass)
// fences them like any copy.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/Analysis.h"
#include "ir/lower/BufferUses.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/Passes.h"
#include "ir/lower/RegisterPrefetch.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/SharedPlacement.h"

namespace tegula::ir {
namespace {

/// Index expressions made only of literals, variables and arithmetic (no loads).
bool pure_index(const Expr& e) {
  if (e->kind == ExprKind::Load || e->kind == ExprKind::Tile) return false;
  for (const Expr& a : e->args)
    if (!pure_index(a)) return false;
  return true;
}


/// The alloc of a buffer at any depth (a tile may be allocated inside an outer loop).
const Stmt* alloc_of(const Kernel& k, const std::string& name) {
  const Stmt* found = nullptr;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (!found && s.op == OpKind::Alloc && s.name == name) found = &s;
  });
  return found;
}

Stmt* alloc_of(Kernel& k, const std::string& name) {
  Stmt* found = nullptr;
  for_each_stmt(k.body, [&](Stmt& s) {
    if (!found && s.op == OpKind::Alloc && s.name == name) found = &s;
  });
  return found;
}

/// The first statement after the prefetched copies and the barriers that follow them.
size_t rest_of_body(const Block& body, size_t last_copy) {
  size_t j = last_copy + 1;
  while (j < body.stmts.size() && body.stmts[j].op == OpKind::Barrier) ++j;
  return j;
}

}  // namespace

BufferMap buffers_at_any_depth(const Kernel& k) {
  BufferMap out = kernel_buffers(k);
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (s.op == OpKind::Alloc) out[s.name] = BufferInfo{s.type.scope, s.type.dtype, s.type.shape, s.loc};
  });
  return out;
}

std::vector<size_t> register_prefetchable(const Stmt& loop, const BufferMap& buffers, const std::set<std::string>& written) {
  std::vector<size_t> out;
  const std::vector<Stmt>& body = loop.body().stmts;
  for (size_t j = 0; j < body.size(); ++j) {
    const Stmt& s = body[j];
    if (s.op == OpKind::Barrier) continue;
    if (s.op != OpKind::Copy) break;
    auto plan = get_copy_plan(s);
    if (!plan.is_ok() || plan->kind != ThreadPlanKind::Free || plan->forward != ForwardedOperand::None) break;
    if (plan->async && plan->engine != CopyEngine::Registers) break;
    auto src = buffers.find(s.copy_src().buffer), dst = buffers.find(s.copy_dst().buffer);
    if (src == buffers.end() || dst == buffers.end()) break;
    if (src->second.scope != Scope::Global || dst->second.scope != Scope::Shared || src->second.dtype != dst->second.dtype) break;
    if (written.count(src->first)) break;
    bool pure = true;
    for (const TileRef* t : {&s.copy_src(), &s.copy_dst()})
      for (const Expr& o : t->offsets) pure = pure && pure_index(o);
    if (!pure || !tile_op_extent(s, buffers).is_ok()) break;
    out.push_back(j);
  }
  return out;
}

std::set<std::string> double_bufferable(const Kernel& k, const Stmt& loop, const std::vector<size_t>& copies,
                                        std::string& why) {
  const std::vector<Stmt>& body = loop.body().stmts;
  std::set<std::string> tiles;
  std::set<const Stmt*> own;
  for (size_t j : copies) {
    const Stmt& c = body[j];
    const std::string& t = c.copy_dst().buffer;
    // One copy per tile, writing it from a constant origin (the store before the loop has no
    // loop variable to place it by).
    if (tiles.count(t)) return why = "two copies write '" + t + "'", std::set<std::string>{};
    const Stmt* alloc = alloc_of(k, t);
    if (!alloc) return why = "'" + t + "' has no alloc", std::set<std::string>{};
    for (const Expr& o : c.copy_dst().offsets)
      if (!const_int(o)) return why = "the copy into '" + t + "' moves with the loop", std::set<std::string>{};
    auto layout = get_shared_layout(alloc->attrs);
    if (!layout.is_ok() || layout->swizzle_bits || layout->block) return why = "'" + t + "' is swizzled or blocked", std::set<std::string>{};
    tiles.insert(t);
    own.insert(&c);
  }
  // The rest of the body may read the tiles but not write them; nothing outside the loop
  // (but their allocs) may name them.
  size_t first_rest = rest_of_body(loop.body(), copies.back());
  for (size_t j = 0; j < first_rest; ++j)
    if (!own.count(&body[j]) && body[j].op != OpKind::Barrier) return why = "a statement sits among the copies", std::set<std::string>{};
  for (size_t j = first_rest; j < body.size(); ++j)
    for (const std::string& w : written_buffers(body[j]))
      if (tiles.count(w)) return why = "the loop body writes '" + w + "' besides its copy", std::set<std::string>{};
  std::set<const Stmt*> inside;
  inside.insert(&loop);
  for_each_stmt(loop.body(), [&](const Stmt& s) { inside.insert(&s); });
  std::string outside;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (inside.count(&s) || s.op == OpKind::Alloc) return;
    for (const std::string& t : tiles)
      if (outside.empty() && stmt_names_buffer(s, t)) outside = t;
  });
  if (!outside.empty()) return why = "'" + outside + "' is used outside the loop", std::set<std::string>{};
  return tiles;
}

namespace {

/// The shared memory the kernel needs as its plans stand, as place_shared will place it.
Result<int64_t> kernel_shared_bytes(const Kernel& k, const TargetDescription& target) {
  TG_ASSIGN_OR_RETURN(std::vector<SharedRegion> regions, shared_regions(k, target));
  return place_regions(regions).bytes;
}

void set_stages(Kernel& k, const std::set<std::string>& tiles, int64_t stages) {
  for (const std::string& t : tiles) {
    Stmt* alloc = alloc_of(k, t);
    SharedLayout layout = *get_shared_layout(alloc->attrs);
    layout.stages = stages;
    // set_shared_layout writes layout.stages only above one stage.
    std::vector<Attr>& attrs = alloc->attrs;
    attrs.erase(std::remove_if(attrs.begin(), attrs.end(), [](const Attr& a) { return a.name == "layout.stages"; }), attrs.end());
    set_shared_layout(attrs, layout);
  }
}

std::string names(const std::set<std::string>& tiles) {
  std::string out;
  for (const std::string& t : tiles) out += (out.empty() ? "'" : ", '") + t + "'";
  return out;
}

}  // namespace

Status plan_register_prefetch(LowerContext& ctx) {
  if (!ctx.target.has_feature(Feature::RegisterPrefetch)) return Status::ok();
  BufferMap buffers = buffers_at_any_depth(ctx.kernel);
  std::set<std::string> written = written_buffers(ctx.kernel.body);
  std::vector<Stmt*> planned;
  std::vector<std::pair<Stmt*, std::set<std::string>>> doubled;  // loop, its two-stage tiles
  std::set<Stmt*> doubled_loops;
  for_each_stmt(ctx.kernel.body, [&](Stmt& loop) {
    // A loop plan_pipelines pipelined for a copy engine keeps that plan.
    if (loop.op != OpKind::Pipelined || find_attr(loop.attrs, "plan.prefetch")) return;
    std::vector<size_t> copies = register_prefetchable(loop, buffers, written);
    if (copies.empty()) {
      ctx.note(
          where(loop) +
          "pipelined loop runs unpipelined: nothing is prefetched through registers: the loop does not start with a "
          "copy from a tensor the kernel never writes into a shared tile of its dtype");
      return;
    }
    std::vector<int64_t> prefetch;
    for (size_t j : copies) {
      Stmt& c = loop.blocks[0].stmts[j];
      set_attr(c.attrs, "plan.async", AttrValue::of_bool(true));
      set_attr(c.attrs, "plan.engine", AttrValue::of_ident("registers"));
      prefetch.push_back(int64_t(j));
      ctx.note(where(c) + "copy into '" + c.copy_dst().buffer + "' loaded one iteration ahead through registers");
    }
    set_attr(loop.attrs, "plan.prefetch", AttrValue::of_ints(prefetch));
    planned.push_back(&loop);
    if (stmt_attr_int(loop, "stages") < 2) {
      ctx.note(where(loop) + "one stage of the prefetched tiles: the loop asks for stages=1");
      return;
    }
    std::string why;
    std::set<std::string> tiles = double_bufferable(ctx.kernel, loop, copies, why);
    for (const std::string& t : tiles)
      if (why.empty() && get_shared_layout(alloc_of(ctx.kernel, t)->attrs)->stages > 1) why = "'" + t + "' has stages already";
    if (!why.empty()) tiles.clear();
    if (tiles.empty()) {
      ctx.note(where(loop) + "one stage of the prefetched tiles: " + why);
      return;
    }
    doubled.push_back({&loop, tiles});
    doubled_loops.insert(&loop);
  });
  // Two stages of every double-buffered tile, or, when they do not fit together, one
  // everywhere.
  for (auto& [loop, tiles] : doubled) set_stages(ctx.kernel, tiles, 2);
  TG_ASSIGN_OR_RETURN(int64_t bytes, kernel_shared_bytes(ctx.kernel, ctx.target));
  int64_t limit = shared_limit(ctx.kernel, ctx.target);
  bool fits = bytes <= limit;
  for (auto& [loop, tiles] : doubled) {
    if (fits) {
      ctx.note(where(*loop) + "two stages of " + names(tiles) + " (double-buffered: one barrier per iteration)");
      continue;
    }
    set_stages(ctx.kernel, tiles, 1);
    ctx.note(where(*loop) + "one stage of " + names(tiles) + ": two need " + std::to_string(bytes) + " bytes of shared memory; target '" +
             ctx.target.name + "' offers " + std::to_string(limit) + " per block");
  }
  for (Stmt* loop : planned)
    set_attr(loop->attrs, "plan.stages", AttrValue::of_int(fits && doubled_loops.count(loop) ? 2 : 1));
  return Status::ok();
}

}  // namespace tegula::ir
