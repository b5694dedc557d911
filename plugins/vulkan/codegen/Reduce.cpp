// Reductions as their plan says: each invocation folds the values it holds into one partial
// per destination element it owns, then combines partials with the threads that share them:
// subgroup shuffles (OpGroupNonUniformShuffleXor) for the plan's xor offsets within a
// subgroup, the plan's shared scratch buffer for offsets across subgroups, or (plan.kind =
// shared) every partner's partial through scratch. max/min/absmax are maximumNumber and
// minimumNumber (Builder::max_number: -0 < +0, a NaN loses to a number): the identity is
// NaN, which loses to any number, so an all-NaN row stays NaN.
#include <cmath>
#include <cstdint>

#include "ir/lower/Lowered.h"
#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

namespace {

struct Reducer {
  Builder& b;
  ir::ReduceKind kind;
  T ty;

  Value identity() {
    if (ty == T::I32) {
      if (kind == ir::ReduceKind::Max) return b.ci(INT32_MIN);
      if (kind == ir::ReduceKind::Min) return b.ci(INT32_MAX);
      return b.ci(0);
    }
    return kind == ir::ReduceKind::Sum ? b.c(ty, 0.0) : b.c(ty, std::nan(""));
  }
  Value max(Value a, Value c) { return ty == T::I32 ? b.smax(a, c) : b.max_number(a, c); }
  Value min(Value a, Value c) { return ty == T::I32 ? b.smin(a, c) : b.min_number(a, c); }
  Value abs(Value a) { return b.glsl(ty == T::I32 ? GlslSAbs : GlslFAbs, ty, {a}); }
  /// Fold one element into a partial.
  Value element(Value p, Value v) {
    switch (kind) {
      case ir::ReduceKind::Sum: return b.add(p, v);
      case ir::ReduceKind::Max: return max(p, v);
      case ir::ReduceKind::Min: return min(p, v);
      case ir::ReduceKind::AbsMax: return max(p, abs(v));
    }
    return p;
  }
  /// Combine two partials.
  Value merge(Value p, Value q) {
    switch (kind) {
      case ir::ReduceKind::Sum: return b.add(p, q);
      case ir::ReduceKind::Max:
      case ir::ReduceKind::AbsMax: return max(p, q);
      case ir::ReduceKind::Min: return min(p, q);
    }
    return p;
  }
  /// The result, combined with the destination's old value when clear=false.
  Value finish(Value p, Value old, bool clear) {
    if (clear) return p;
    switch (kind) {
      case ir::ReduceKind::Sum: return b.add(old, p);
      case ir::ReduceKind::Max: return max(old, p);
      case ir::ReduceKind::Min: return min(old, p);
      case ir::ReduceKind::AbsMax: return max(abs(old), p);
    }
    return p;
  }
};

}  // namespace

Status KernelGen::gen_reduce(const ir::Stmt& s) {
  Buf* src = find_buf(s.reduce_src().buffer);
  Buf* dst = find_buf(s.reduce_dst().buffer);
  if (!src || !dst) return fail(s.loc, "unbound reduce operand");
  if (src->scope == ir::Scope::Global || dst->scope == ir::Scope::Local) return fail(s.loc, "reduce from a global tensor");
  auto plan = ir::get_reduce_plan(s);
  if (!plan.is_ok()) return fail(s.loc, "reduce without a plan (was the kernel lowered?)");
  const ir::Distribution& exec = plan->exec;
  ir::ReduceKind kind = *ir::parse_reduce(ir::stmt_attr_ident(s, "op"));
  int axis = plan->axis;
  bool clear = ir::stmt_attr_bool(s, "clear");
  const std::vector<int64_t>& shuffle = plan->shuffle;
  const std::vector<int64_t>& cross = plan->cross;
  bool all_shared = plan->kind == ir::ReducePlanKind::Shared;
  Buf* scratch = nullptr;
  if (plan->uses_scratch()) {
    scratch = find_buf(plan->scratch);
    if (!scratch || scratch->scope != ir::Scope::Shared) return fail(s.loc, "reduce plan names no scratch buffer");
  }
  if (!shuffle.empty() && !t_.subgroup_ops) return fail(s.loc, "reduce plan shuffles, but the target has no subgroup operations");
  int rank = int(src->shape.size());
  T ty = src->dtype == DType::F64 ? T::F64 : (dtype_is_int(src->dtype) ? T::I32 : T::F32);
  Reducer r{b_, kind, ty};

  // Partials: one per value slot of the reduced distribution (the axis' value factors gone).
  int64_t partials = plan->partials();
  std::vector<int64_t> partial_of(size_t(exec.value_count()));
  for (int64_t v = 0; v < exec.value_count(); ++v) partial_of[size_t(v)] = plan->partial_of(v);
  std::vector<uint32_t> part;
  for (int64_t p = 0; p < partials; ++p) part.push_back(b_.var(ty, r.identity()));

  Exec e = bind(exec, rank);
  for_slots(e, src->shape, [&](int64_t v, const std::vector<Value>& c) {
    Value x = src->scope == ir::Scope::Fragment ? read_slot(*src, v) : read_memory(*src, c, 0.0);
    uint32_t pv = part[size_t(partial_of[size_t(v)])];
    b_.store(pv, r.element(b_.load(pv, ty), cast_value(x, ty)));
  });

  // Within a subgroup.
  if (!shuffle.empty()) {
    m_.capability(CapGroupNonUniform);
    m_.capability(CapGroupNonUniformShuffle);
    uses_subgroup_ = true;
  }
  for (int64_t o : shuffle)
    for (uint32_t pv : part) {
      Value mine = b_.load(pv, ty);
      Value theirs = b_.op(OpGroupNonUniformShuffleXor, ty, {b_.cu(ScopeSubgroup).id, mine.id, b_.cu(uint32_t(o)).id});
      b_.store(pv, r.merge(mine, theirs));
    }
  // Across subgroups, through scratch [threads, partials].
  Value t = b_.bitcast(tid_, T::I32);
  auto scratch_at = [&](Value thread, int64_t p) { return shared_index(*scratch, {thread, b_.ci(int32_t(p))}); };
  auto publish = [&] {
    b_.barrier();
    for (int64_t p = 0; p < partials; ++p) store_raw(*scratch, scratch_at(t, p), cv_.encode(scratch->dtype, b_.load(part[size_t(p)], ty)));
    b_.barrier();
  };
  for (int64_t o : cross) {
    publish();
    Value partner = b_.bitcast(b_.bxor(tid_, b_.cu(uint32_t(o))), T::I32);
    for (int64_t p = 0; p < partials; ++p) {
      Value theirs = cast_value(cv_.decode(scratch->dtype, load_raw(*scratch, scratch_at(partner, p))), ty);
      b_.store(part[size_t(p)], r.merge(b_.load(part[size_t(p)], ty), theirs));
    }
  }
  if (all_shared) {
    // Every thread that differs from this one only in the axis' thread digits.
    publish();
    Value base = tid_;
    std::vector<std::pair<int64_t, int64_t>> axis_factors;  // (radix, size)
    int64_t radix = 1, combos = 1;
    for (const ir::Factor& f : exec.threads) {
      if (f.dim == axis && f.size > 1) {
        base = b_.sub(base, b_.mul(thread_digit(radix, f.size), b_.cu(uint32_t(radix))));
        axis_factors.push_back({radix, f.size});
        combos *= f.size;
      }
      radix *= f.size;
    }
    std::vector<uint32_t> total;
    for (int64_t p = 0; p < partials; ++p) total.push_back(b_.var(ty, r.identity()));
    b_.for_(b_.ci(0), b_.ci(int32_t(combos)), 1, [&](Value q) {
      Value u = base, rest = b_.bitcast(q, T::U32);
      for (auto [fr, fs] : axis_factors) {
        u = b_.add(u, b_.mul(b_.umod(rest, b_.cu(uint32_t(fs))), b_.cu(uint32_t(fr))));
        rest = b_.udiv(rest, b_.cu(uint32_t(fs)));
      }
      Value ui = b_.bitcast(u, T::I32);
      for (int64_t p = 0; p < partials; ++p) {
        Value theirs = cast_value(cv_.decode(scratch->dtype, load_raw(*scratch, scratch_at(ui, p))), ty);
        b_.store(total[size_t(p)], r.merge(b_.load(total[size_t(p)], ty), theirs));
      }
    });
    for (int64_t p = 0; p < partials; ++p) b_.store(part[size_t(p)], b_.load(total[size_t(p)], ty));
  }

  // Write the destination: a fragment's own slots, or (shared, global) once per element.
  bool keep = dst->shape.size() == src->shape.size();
  ir::Distribution reduced = ir::reduced_distribution(exec, axis, keep);
  if (dst->scope == ir::Scope::Fragment) {
    TG_ASSIGN_OR_RETURN(std::vector<int64_t> map, map_slots(dst->dist, dst->shape, reduced, dst->shape));
    for (int64_t w = 0; w < dst->slots; ++w) {
      int64_t p = map[size_t(w)];
      if (p < 0) continue;
      Value old = clear ? Value{} : cast_value(read_slot(*dst, w), ty);
      write_slot(*dst, w, r.finish(b_.load(part[size_t(p)], ty), old, clear));
    }
    return Status::ok();
  }
  Exec re = bind(reduced, int(dst->shape.size()));
  auto body = [&] {
    for_slots(re, dst->shape, [&](int64_t p, const std::vector<Value>& c) {
      Value old = clear ? Value{} : cast_value(read_memory(*dst, c, 0.0), ty);
      write_memory(*dst, c, r.finish(b_.load(part[size_t(p)], ty), old, clear));
    });
  };
  if (re.replicated) b_.if_(re.primary, body);
  else body();
  return Status::ok();
}

}  // namespace tegula::vulkan
