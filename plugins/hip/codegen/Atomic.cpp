/// \file
/// atomic_add: each element of the source tile added into the global destination, atomically,
/// once. Under a fragment plan the source is the plan's fragment; under a free plan a shared
/// or global tile. A replicated element (a thread factor of the plan that replicates, or two
/// slots of one thread holding the same element) adds once: replica threads do nothing and a
/// thread skips a slot whose element it has already added.
///
/// f32 and f64 are LLVM's `atomicrmw fadd` at agent scope, with `!amdgpu.no.fine.grained.memory`
/// (the plugin's buffers are hipMalloc memory, which is coarse-grained), so the AMDGPU
/// backend picks gfx942's global_atomic_add_f32/f64 where it keeps the IEEE denormal mode and
/// a compare-and-swap loop where it does not. f16 and bf16 are a compare-and-swap loop on
/// the 32-bit word that holds the element (the sum in f32, rounded to the dtype, as the cuda
/// backend does); i32 a loop adding in f64 and storing as an i32 store would (rounded,
/// saturated). Other dtypes are refused with the reason, as on cuda.
#include <set>

#include "plugins/hip/codegen/Emitter.h"

namespace tegula::hip {

using llvm::Value;

Value* Emitter::replica(const ir::Distribution& dist) {
  Value* r = b.getFalse();
  int64_t radix = 1;
  for (const ir::Factor& f : dist.threads) {
    if (f.dim < 0 && f.size > 1)
      r = b.CreateOr(r, b.CreateICmpNE(b.CreateURem(b.CreateUDiv(thread_id(), ci(radix)), ci(f.size)), ci(0)));
    radix *= f.size;
  }
  return r;
}

/// `*addr += v` on the 32-bit word at or around `addr` by compare-and-swap: the element's bits
/// (`bits` wide, at `addr`) decoded as `d`, added to `v` in `k`, encoded back.
Status Emitter::atomic_add_by_cas(DType d, Value* addr, Val v) {
  unsigned bits = unsigned(dtype_size(d) * 8);
  Value* a = b.CreatePtrToInt(addr, i64);
  Value* word_ptr = b.CreateIntToPtr(b.CreateAnd(a, ci(~int64_t(3))), global_ptr);
  Value* shift = b.CreateTrunc(b.CreateMul(b.CreateAnd(a, ci(3)), ci(8)), i32);
  Value* mask = bits == 32 ? b.getInt32(~0u) : b.CreateShl(b.getInt32((1u << bits) - 1), shift);
  auto* start = b.CreateLoad(i32, word_ptr);
  start->setAtomic(llvm::AtomicOrdering::Monotonic, ctx.getOrInsertSyncScopeID("agent"));
  start->setAlignment(llvm::Align(4));

  llvm::BasicBlock* pre = b.GetInsertBlock();
  auto* head = llvm::BasicBlock::Create(ctx, "cas", function());
  auto* done = llvm::BasicBlock::Create(ctx, "cas_done", function());
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* old = b.CreatePHI(i32, 2, "old");
  old->addIncoming(start, pre);
  Value* elem_bits = b.CreateTrunc(b.CreateLShr(old, shift), b.getIntNTy(bits));
  TG_ASSIGN_OR_RETURN(llvm::Type * st, storage_type(d));
  TG_ASSIGN_OR_RETURN(Val cur, decode(d, b.CreateBitCast(elem_bits, st)));
  VK k = d == DType::I32 ? VK::F64 : VK::F32;
  Value* sum = b.CreateFAdd(convert(cur, k).v, convert(v, k).v);
  TG_ASSIGN_OR_RETURN(Value * enc, encode(d, Val{sum, k}));
  Value* new_bits = b.CreateShl(b.CreateZExt(b.CreateBitCast(enc, b.getIntNTy(bits)), i32), shift);
  Value* next = b.CreateOr(b.CreateAnd(old, b.CreateNot(mask)), new_bits);
  auto* cas = b.CreateAtomicCmpXchg(word_ptr, old, next, llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic,
                                    llvm::AtomicOrdering::Monotonic, ctx.getOrInsertSyncScopeID("agent"));
  old->addIncoming(b.CreateExtractValue(cas, 0), b.GetInsertBlock());
  b.CreateCondBr(b.CreateExtractValue(cas, 1), done, head);
  b.SetInsertPoint(done);
  return Status::ok();
}

Status Emitter::atomic_add_at(const ir::Stmt& s, DType d, Value* addr, Val v) {
  switch (d) {
    case DType::F32:
    case DType::F64: {
      Value* x = convert(v, d == DType::F64 ? VK::F64 : VK::F32).v;
      auto* rmw = b.CreateAtomicRMW(llvm::AtomicRMWInst::FAdd, addr, x, llvm::MaybeAlign(dtype_size(d)),
                                    llvm::AtomicOrdering::Monotonic, ctx.getOrInsertSyncScopeID("agent"));
      rmw->setMetadata("amdgpu.no.fine.grained.memory", llvm::MDNode::get(ctx, {}));
      return Status::ok();
    }
    case DType::F16:
    case DType::BF16:
    case DType::I32: return atomic_add_by_cas(d, addr, v);
    default: return not_implemented(&s, std::string("atomic_add into a ") + dtype_name(d) + " tensor");
  }
}

Status Emitter::emit_atomic(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(ir::CopyPlan plan, ir::get_copy_plan(s));
  if (plan.async || plan.engine != ir::CopyEngine::None) return not_implemented(&s, "asynchronous copies");
  const ir::TileRef& src_ref = s.atomic_src();
  const ir::TileRef& dst_ref = s.atomic_dst();
  Buffer* src = find_buffer(src_ref.buffer);
  Buffer* dst = find_buffer(dst_ref.buffer);
  if (!src || !dst || dst->scope != ir::Scope::Global)
    return error(ErrorCode::Internal, "hip: atomic_add without a source or into a non-global tile", s.loc);
  std::vector<int64_t> extent = ir::stmt_attr_ints(s, "extent");
  if (extent.empty() && src->scope != ir::Scope::Global && src_ref.offsets.empty()) extent = src->shape;
  if (extent.empty()) return not_implemented(&s, "an atomic_add whose extent no operand gives");
  TG_ASSIGN_OR_RETURN(std::vector<Element> elems, elements(s, plan, extent));
  // elements() checked that a fragment plan names a fragment.
  Buffer* frag = plan.kind == ir::ThreadPlanKind::Fragment ? find_buffer(plan.layout) : nullptr;
  const ir::Distribution* exec = frag ? &frag->dist : &plan.threads;
  int rank = frag ? frag->rank() : int(extent.size());
  return if_then(b.CreateNot(replica(*exec)), [&]() -> Status {
    std::set<std::vector<int64_t>> seen;  // a thread's replicated slots add once
    for (const Element& e : elems) {
      if (!seen.insert(exec->coords(0, e.slot, rank)).second) continue;
      auto body = [&]() -> Status {
        TG_ASSIGN_OR_RETURN(Access a, operand(src_ref, e, extent, plan, plan.src_in.all()));
        TG_ASSIGN_OR_RETURN(Access d, operand(dst_ref, e, extent, plan, plan.dst_in.all()));
        auto add = [&]() -> Status {
          TG_ASSIGN_OR_RETURN(Val v, a.inside ? masked_load(*src, a.address, a.inside) : load_at(*src, a.address));
          return atomic_add_at(s, dst->dtype, d.address, v);
        };
        return d.inside ? if_then(d.inside, add) : add();
      };
      TG_RETURN_IF_ERROR(e.valid ? if_then(e.valid, body) : body());
    }
    return Status::ok();
  });
}

}  // namespace tegula::hip
