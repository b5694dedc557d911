/// \file
/// reduce under its plan (ir/lower/README.md, Reduce; the interpreter's lowered model is the
/// reference): each thread combines the source elements plan.threads/values give it into one
/// partial per output (partial_of), then for each xor offset of plan.shuffle it combines with
/// lane t ^ o's partial through ds_bpermute (within the wave), and for each offset of
/// plan.cross with thread t ^ o's through the LDS scratch buffer (publish, barrier, read,
/// between two barriers as the shared scratch requires). Each thread then writes its own
/// slots of the destination fragment. max/min start from NaN, which maximumNumber drops, so
/// an all-NaN line stays NaN and a thread holding nothing changes nothing.
#include <cmath>

#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "plugins/hip/codegen/Emitter.h"

namespace tegula::hip {

using llvm::Value;

namespace {

/// For destination slot `u`, the partial (numbered by partial_of) that holds its output in
/// every thread, or -1 when it depends on the thread or no thread holds it.
int64_t partial_for_slot(const ir::ReducePlan& plan, const Buffer& src, const Buffer& dst, int64_t u, int64_t threads) {
  int rank = src.rank();
  int drank = dst.rank();
  int64_t found = -2;
  for (int64_t t = 0; t < threads; ++t) {
    std::vector<int64_t> dc = dst.dist.coords(t, u, drank);
    bool padding = false;
    for (int d = 0; d < drank; ++d) padding |= dc[size_t(d)] >= dst.shape[size_t(d)];
    if (padding) continue;
    std::vector<int64_t> want;  // dst coordinates as source coordinates off the axis
    for (int d = 0, e = 0; d < rank; ++d) {
      if (d == plan.axis) {
        if (drank == rank) ++e;
        want.push_back(0);
        continue;
      }
      want.push_back(dc[size_t(e++)]);
    }
    int64_t p = -1;
    for (int64_t v = 0; v < plan.exec.value_count() && p < 0; ++v) {
      std::vector<int64_t> c = plan.exec.coords(t, v, rank);
      bool same = true;
      for (int d = 0; d < rank; ++d) same = same && (d == plan.axis || c[size_t(d)] == want[size_t(d)]);
      if (same) p = plan.partial_of(v);
    }
    if (p < 0 || (found >= 0 && found != p)) return -1;
    found = p;
  }
  return found < 0 ? 0 : found;
}

}  // namespace

Status Emitter::emit_reduce(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(ir::ReducePlan plan, ir::get_reduce_plan(s));
  if (plan.kind == ir::ReducePlanKind::Shared)
    return not_implemented(&s, "reductions planned entirely through the scratch buffer (plan.kind=shared)");
  Buffer* src = find_buffer(s.reduce_src().buffer);
  Buffer* dst = find_buffer(s.reduce_dst().buffer);
  if (!src || !dst) return error(ErrorCode::Internal, "hip: reduce operand unknown", s.loc);
  if (!s.reduce_src().offsets.empty() || !s.reduce_dst().offsets.empty())
    return not_implemented(&s, "reduce operands with offsets");
  if (dst->scope != ir::Scope::Fragment) return not_implemented(&s, "a reduction into a shared or global tile");
  if (src->scope != ir::Scope::Fragment && src->scope != ir::Scope::Shared)
    return not_implemented(&s, "a reduction of a global tile");
  if (!dtype_is_float(src->dtype) || !dtype_is_float(dst->dtype)) return not_implemented(&s, "integer reductions");
  ir::ReduceKind op = *ir::parse_reduce(ir::stmt_attr_ident(s, "op"));
  bool clear = ir::stmt_attr_bool(s, "clear");
  VK k = src->dtype == DType::F64 || dst->dtype == DType::F64 ? VK::F64 : VK::F32;
  llvm::Type* kt = k == VK::F64 ? f64 : f32;
  Value* identity = llvm::ConstantFP::get(kt, op == ir::ReduceKind::Sum ? 0.0 : std::nan(""));
  auto combine = [&](Value* acc, Value* x) -> Value* {
    if (op == ir::ReduceKind::Sum) return b.CreateFAdd(acc, x);
    return float_max_min(b, acc, x, op != ir::ReduceKind::Min);
  };
  std::vector<Value*> partial(size_t(plan.partials()), identity);

  // 1. This thread's elements, under the plan's distribution.
  ir::CopyPlan exec;
  exec.kind = ir::ThreadPlanKind::Free;
  exec.threads = plan.exec;
  if (src->scope == ir::Scope::Fragment) {
    if (!(src->dist == plan.exec))
      return not_implemented(&s, "a reduction whose plan is not its source fragment's layout");
    exec.kind = ir::ThreadPlanKind::Fragment;
    exec.layout = src->name;
  }
  TG_ASSIGN_OR_RETURN(std::vector<Element> elems, elements(s, exec, src->shape));
  for (const Element& e : elems) {
    Val x;
    if (src->scope == ir::Scope::Fragment) {
      TG_ASSIGN_OR_RETURN(x, load_at(*src, slot_address(*src, e.slot)));
    } else {
      TG_ASSIGN_OR_RETURN(Value * addr, address(*src, e.coords));
      TG_ASSIGN_OR_RETURN(x, load_at(*src, addr));
    }
    Value* v = convert(x, k).v;
    if (op == ir::ReduceKind::AbsMax) v = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
    Value*& p = partial[size_t(plan.partial_of(e.slot))];
    Value* next = combine(p, v);
    p = e.valid ? b.CreateSelect(e.valid, next, p) : next;
  }

  // 2. Within the wave: lane t ^ o's partial by ds_bpermute (a byte address of the lane).
  Value* lane = b.CreateAnd(thread_id(), ci(63));
  for (int64_t o : plan.shuffle) {
    Value* partner = b.CreateXor(lane, ci(o));
    Value* addr = b.CreateTrunc(b.CreateShl(partner, ci(2)), i32);
    // A partner past the block's last thread (blocks of fewer than 64) keeps this thread's value.
    Value* real = b.CreateICmpULT(b.CreateXor(thread_id(), ci(o)), ci(kernel.threads));
    for (Value*& p : partial) {
      Value* other = nullptr;
      if (k == VK::F32) {
        other = b.CreateBitCast(
            b.CreateIntrinsic(llvm::Intrinsic::amdgcn_ds_bpermute, {}, {addr, b.CreateBitCast(p, i32)}), f32);
      } else {
        Value* bits = b.CreateBitCast(p, i64);
        Value* lo = b.CreateIntrinsic(llvm::Intrinsic::amdgcn_ds_bpermute, {}, {addr, b.CreateTrunc(bits, i32)});
        Value* hi = b.CreateIntrinsic(llvm::Intrinsic::amdgcn_ds_bpermute, {},
                                      {addr, b.CreateTrunc(b.CreateLShr(bits, ci(32)), i32)});
        other = b.CreateBitCast(b.CreateOr(b.CreateZExt(lo, i64), b.CreateShl(b.CreateZExt(hi, i64), ci(32))), f64);
      }
      p = b.CreateSelect(real, combine(p, other), p);
    }
  }

  // 3. Across waves: thread t ^ o's partial through the scratch buffer [threads, partials].
  if (!plan.cross.empty()) {
    Buffer* scratch = find_buffer(plan.scratch);
    if (!scratch || scratch->scope != ir::Scope::Shared)
      return error(ErrorCode::Internal, "hip: reduce without its scratch buffer", s.loc);
    for (int64_t o : plan.cross) {
      barrier();
      for (size_t i = 0; i < partial.size(); ++i) {
        TG_ASSIGN_OR_RETURN(Value * mine, address(*scratch, {thread_id(), ci(int64_t(i))}));
        TG_RETURN_IF_ERROR(store_at(*scratch, mine, {partial[i], k}));
      }
      barrier();
      Value* partner = b.CreateXor(thread_id(), ci(o));
      Value* real = b.CreateICmpULT(partner, ci(kernel.threads));
      Value* safe = b.CreateSelect(real, partner, thread_id());
      for (size_t i = 0; i < partial.size(); ++i) {
        TG_ASSIGN_OR_RETURN(Value * theirs, address(*scratch, {safe, ci(int64_t(i))}));
        TG_ASSIGN_OR_RETURN(Val x, load_at(*scratch, theirs));
        partial[i] = b.CreateSelect(real, combine(partial[i], convert(x, k).v), partial[i]);
      }
    }
  }

  // 4. This thread's copies of the destination.
  for (int64_t u = 0; u < dst->slots; ++u) {
    int64_t p = partial_for_slot(plan, *src, *dst, u, kernel.threads);
    if (p < 0) return not_implemented(&s, "a reduction whose destination layout holds outputs other threads reduced");
    Value* v = partial[size_t(p)];
    if (!clear) {
      TG_ASSIGN_OR_RETURN(Val old, load_at(*dst, slot_address(*dst, u)));
      Value* o = convert(old, k).v;
      if (op == ir::ReduceKind::AbsMax) o = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, o);
      v = combine(o, v);
    }
    TG_RETURN_IF_ERROR(store_at(*dst, slot_address(*dst, u), {v, k}));
  }
  return Status::ok();
}

}  // namespace tegula::hip
