// Reduction lowering: turn each reduce into the steps that run it on the block's threads.
//
// Each thread first reduces the values it holds along the axis. Threads that share the
// axis then combine: those within one subgroup by butterfly shuffles (an xor of the lane
// index for every bit of the axis's thread factors below the subgroup width), those in
// different subgroups through a shared scratch buffer (each thread writes its partial, a
// barrier, then each combines the partials of its partners). Afterwards every thread that
// held part of a row holds the whole result, which is exactly the layout assign_layouts gave
// the destination (the axis replicated). A thread factor of a size that is not a power of
// two cannot be walked by xor, so such reductions go entirely through the scratch buffer.
//
// Reductions share their scratch: one buffer per accumulator dtype, as large as the largest
// need among them (before, each reduce had its own, and two 16 KiB buffers pushed d128
// attention past a 64 KiB shared budget). Sharing is safe because a reduce's steps publish
// their partials between two barriers (the contract every backend's emitter keeps, stated
// on ReducePlan in Lowered.h): the barrier before the writes waits for every read of the
// reduce before it, whichever buffer that read.
//
// Attributes: plan.kind = local | tree | shared, plan.shuffle = [lane xor offsets],
// plan.cross = [thread xor offsets across subgroups], plan.scratch = the scratch buffer,
// plan.threads/values = the distribution the steps run over (the source fragment's, or for
// a shared source one in which each thread reads whole rows of the axis).
#include "ir/lower/Distribution.h"

#include <algorithm>
#include <cstdint>
#include "ir/lower/Passes.h"

namespace tegula::ir {
namespace {

bool is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

DType accumulator_dtype(DType t) {
  if (t == DType::F64) return DType::F64;
  if (dtype_is_int(t)) return DType::I32;
  return DType::F32;
}

/// The scratch buffer of `dtype`, created at its first use and grown to `per_thread`
/// partials of each of the block's threads.
const std::string& shared_scratch(std::vector<Stmt>& allocs, DType dtype, int64_t threads, int64_t per_thread,
                                  const SourceLoc& loc) {
  for (Stmt& a : allocs) {
    if (a.type.dtype != dtype) continue;
    a.type.shape[1] = std::max(a.type.shape[1], per_thread);
    return a.name;
  }
  Stmt alloc;
  alloc.op = OpKind::Alloc;
  alloc.name = "tg_scratch" + std::to_string(allocs.size());
  alloc.loc = loc;
  alloc.type = BufferType{Scope::Shared, dtype, {threads, per_thread}};
  allocs.push_back(alloc);
  return allocs.back().name;
}

}  // namespace

Status lower_reductions(LowerContext& ctx) {
  BufferMap buffers = ctx.buffers();
  int64_t subgroup = std::max(1, ctx.target.subgroup_width);
  // One scratch per accumulator dtype, in order of first use, with the largest need.
  std::vector<Stmt> scratch_allocs;
  Status st;
  for_each_stmt(ctx.kernel.body, [&](Stmt& s) {
    if (s.op != OpKind::Reduce || !st.is_ok()) return;
    const BufferInfo& src = buffers.at(s.reduce_src().buffer);
    const BufferInfo& dst = buffers.at(s.reduce_dst().buffer);
    int axis = int(stmt_attr_int(s, "axis"));
    Distribution exec;
    if (src.scope == Scope::Fragment) {
      Stmt* alloc = ctx.find_alloc(s.reduce_src().buffer);
      auto d = get_distribution(alloc->attrs, "layout");
      if (!d.is_ok()) {
        st = d.status();
        return;
      }
      exec = *d;
    } else {
      // Each thread walks whole rows of the axis for the destination elements it owns.
      Distribution out;
      if (dst.scope == Scope::Fragment) {
        auto d = get_distribution(ctx.find_alloc(s.reduce_dst().buffer)->attrs, "layout");
        if (!d.is_ok()) {
          st = d.status();
          return;
        }
        out = *d;
      } else {
        out = free_distribution(dst.shape, ctx.kernel.threads, 1);
      }
      bool keep = dst.shape.size() == src.shape.size();
      for (const auto* fs : {&out.threads, &out.values}) {
        std::vector<Factor>& target = fs == &out.threads ? exec.threads : exec.values;
        for (Factor f : *fs) {
          if (!keep && f.dim >= axis) ++f.dim;
          target.push_back(f);
        }
      }
      exec.values.insert(exec.values.begin(), Factor{src.shape[size_t(axis)], axis, 1});
    }
    // Walk the thread factors: their position in the thread index gives the xor offsets.
    std::vector<int64_t> shuffle, cross;
    bool all_pow2 = true;
    int64_t position = 1;
    for (const Factor& f : exec.threads) {
      if (f.dim == axis) {
        if (!is_pow2(f.size)) all_pow2 = false;
        for (int64_t bit = 1; bit < f.size; bit *= 2) (position * bit < subgroup ? shuffle : cross).push_back(position * bit);
      }
      position *= f.size;
    }
    std::string kind = (!all_pow2) ? "shared" : (!cross.empty() ? "tree" : (shuffle.empty() ? "local" : "tree"));
    set_attr(s.attrs, "plan.kind", AttrValue::of_ident(kind));
    set_distribution(s.attrs, "plan", exec);
    set_attr(s.attrs, "plan.shuffle", AttrValue::of_ints(all_pow2 ? shuffle : std::vector<int64_t>{}));
    set_attr(s.attrs, "plan.cross", AttrValue::of_ints(all_pow2 ? cross : std::vector<int64_t>{}));
    std::string note = where(s) + "reduce along axis " + std::to_string(axis) + ": ";
    if (kind == "shared" || !cross.empty()) {
      // One partial per (thread, destination value) of this thread.
      int64_t per_thread = std::max<int64_t>(1, reduced_distribution(exec, axis, true).value_count());
      const std::string& name = shared_scratch(scratch_allocs, accumulator_dtype(src.dtype), ctx.kernel.threads, per_thread, s.loc);
      set_attr(s.attrs, "plan.scratch", AttrValue::of_ident(name));
      note += kind == "shared" ? "all partials through shared '" + name + "' (a thread factor is not a power of two)"
                               : std::to_string(shuffle.size()) + " shuffle steps, then " + std::to_string(cross.size()) +
                                     " steps across subgroups through shared '" + name + "'";
    } else {
      note += shuffle.empty() ? "within each thread" : std::to_string(shuffle.size()) + " shuffle steps within the subgroup";
    }
    ctx.note(note);
  });
  TG_RETURN_IF_ERROR(st);
  // Scratch buffers join the other allocs at the top of the body.
  auto& stmts = ctx.kernel.body.stmts;
  size_t insert_at = 0;
  while (insert_at < stmts.size() && stmts[insert_at].op == OpKind::Alloc) ++insert_at;
  stmts.insert(stmts.begin() + long(insert_at), scratch_allocs.begin(), scratch_allocs.end());
  return Status::ok();
}

}  // namespace tegula::ir
