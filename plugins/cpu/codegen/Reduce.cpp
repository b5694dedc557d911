/// \file
/// reduce. Along the last axis (rows) of a float tile the reduction is written as explicit
/// vector code: several vector accumulators over the row, a horizontal combine, and a scalar
/// tail. That keeps max/min vectorised with the IR's maximumNumber/minimumNumber semantics
/// (LLVM's vectoriser only takes maxnum reductions that may ignore NaN, and maxnum leaves
/// the sign of a zero open: Emitter::max_number writes the rule out). Along other axes the partial results live in a
/// scratch row and the loop over that row vectorises by itself.
///
/// max/min/absmax start from the first element instead of -inf/inf, so a NaN loses to any
/// number while a row of only NaN stays NaN, as the reference does.
#include "llvm/IR/Intrinsics.h"

#include <cstdint>
#include "plugins/cpu/codegen/Emitter.h"

namespace tegula::cpu {
namespace {

struct Combine {
  Emitter& e;
  ir::ReduceKind kind;

  /// The value an element contributes (|x| for absmax).
  llvm::Value* prepare(Val x) {
    if (kind != ir::ReduceKind::AbsMax) return x.v;
    if (x.k == VK::Index) return e.b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, x.v, e.b.getFalse());
    return e.b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x.v);
  }
  llvm::Value* operator()(llvm::Value* acc, llvm::Value* x, bool ints) {
    llvm::IRBuilder<>& b = e.b;
    switch (kind) {
      case ir::ReduceKind::Sum: {
        if (ints) return b.CreateAdd(acc, x);
        llvm::Value* s = b.CreateFAdd(acc, x);
        // The order of a float sum is free (the reference sums in f64 anyway): let LLVM
        // reassociate it.
        if (auto* inst = llvm::dyn_cast<llvm::Instruction>(s)) inst->setHasAllowReassoc(true);
        return s;
      }
      case ir::ReduceKind::Max:
      case ir::ReduceKind::AbsMax: return ints ? b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, acc, x) : e.max_number(acc, x);
      case ir::ReduceKind::Min: return ints ? b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, acc, x) : e.min_number(acc, x);
    }
    return acc;
  }
};

/// The result combined with the destination's old value (clear=false), as the reference's
/// Partial::finish does.
Val finish(Emitter& e, ir::ReduceKind kind, Val v, Val old) {
  llvm::IRBuilder<>& b = e.b;
  VK k = (v.k == VK::Index && old.k == VK::Index) ? VK::Index
         : (v.k == VK::F32 && old.k == VK::F32)   ? VK::F32
                                                  : VK::F64;
  llvm::Value* x = e.convert(v, k).v;
  llvm::Value* o = e.convert(old, k).v;
  bool ints = k == VK::Index;
  switch (kind) {
    case ir::ReduceKind::Sum: return {ints ? b.CreateAdd(o, x) : b.CreateFAdd(o, x), k};
    case ir::ReduceKind::Max: return {ints ? b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, o, x) : e.max_number(o, x), k};
    case ir::ReduceKind::Min: return {ints ? b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, o, x) : e.min_number(o, x), k};
    case ir::ReduceKind::AbsMax: {
      llvm::Value* a = ints ? b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, o, b.getFalse())
                            : b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, o);
      return {ints ? b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, a, x) : e.max_number(a, x), k};
    }
  }
  return v;
}

llvm::Value* entry_alloca(Emitter& e, llvm::Type* t) {
  llvm::BasicBlock& entry = e.function()->getEntryBlock();
  llvm::IRBuilder<> at(&entry, entry.begin());
  return at.CreateAlloca(t);
}

/// Reduce `len` contiguous elements of src starting at linear index `base`; kind f32.
Result<llvm::Value*> vector_row(Emitter& e, Combine& combine, const Buffer& src, llvm::Value* base, int64_t len) {
  llvm::IRBuilder<>& b = e.b;
  int vw = int(e.opts.f32_lanes);
  int64_t nvec = len / vw;
  int unroll = nvec >= 4 ? 4 : int(nvec);
  llvm::Type* st = e.storage_type(src.dtype);
  auto* vst = llvm::FixedVectorType::get(st, unsigned(vw));
  auto* vf = llvm::FixedVectorType::get(e.f32, unsigned(vw));
  auto vload = [&](llvm::Value* at) {
    llvm::LoadInst* l = b.CreateAlignedLoad(vst, e.elem_ptr(src, at), llvm::Align(dtype_size(src.dtype)));
    e.annotate(l, src.alias);
    return combine.prepare(e.decode(src.dtype, l));
  };
  // Accumulators start from the first vectors of the row.
  std::vector<llvm::Value*> slots;
  for (int u = 0; u < unroll; ++u) {
    slots.push_back(entry_alloca(e, vf));
    b.CreateStore(vload(b.CreateAdd(base, e.ci(int64_t(u) * vw))), slots.back());
  }
  int64_t step = int64_t(unroll) * vw;
  int64_t groups = nvec / unroll;
  TG_RETURN_IF_ERROR(e.loop(e.ci(1), e.ci(groups), [&](llvm::Value* g) -> Status {
    llvm::Value* at = b.CreateAdd(base, b.CreateMul(g, e.ci(step)));
    for (int u = 0; u < unroll; ++u) {
      llvm::Value* x = vload(b.CreateAdd(at, e.ci(int64_t(u) * vw)));
      b.CreateStore(combine(b.CreateLoad(vf, slots[size_t(u)]), x, false), slots[size_t(u)]);
    }
    return Status::ok();
  }));
  // Leftover whole vectors, into the first accumulator.
  for (int64_t v = groups * unroll; v < nvec; ++v) {
    llvm::Value* x = vload(b.CreateAdd(base, e.ci(v * vw)));
    b.CreateStore(combine(b.CreateLoad(vf, slots[0]), x, false), slots[0]);
  }
  llvm::Value* acc = b.CreateLoad(vf, slots[0]);
  for (int u = 1; u < unroll; ++u) acc = combine(acc, b.CreateLoad(vf, slots[size_t(u)]), false);
  llvm::Value* r = nullptr;
  switch (combine.kind) {
    case ir::ReduceKind::Sum: {
      r = b.CreateFAddReduce(llvm::ConstantFP::get(e.f32, 0.0), acc);
      llvm::cast<llvm::Instruction>(r)->setHasAllowReassoc(true);
      break;
    }
    case ir::ReduceKind::Max:
    case ir::ReduceKind::AbsMax:
    case ir::ReduceKind::Min: {
      // Lane by lane: llvm.vector.reduce.fmax/fmin leave the sign of a zero result open.
      r = b.CreateExtractElement(acc, uint64_t(0));
      for (int l = 1; l < vw; ++l) r = combine(r, b.CreateExtractElement(acc, uint64_t(l)), false);
      break;
    }
  }
  // The scalar tail.
  for (int64_t i = nvec * vw; i < len; ++i) {
    Val x = e.load(src, b.CreateAdd(base, e.ci(i)));
    r = combine(r, combine.prepare(x), false);
  }
  return r;
}

}  // namespace

Status Emitter::emit_reduce(const ir::Stmt& s) {
  Buffer* src = find_buffer(s.reduce_src().buffer);
  Buffer* dst = find_buffer(s.reduce_dst().buffer);
  if (!src || !dst) return error(ErrorCode::Internal, "unbound reduce operand", s.loc);
  std::optional<ir::ReduceKind> kind = ir::parse_reduce(stmt_attr_ident(s, "op"));
  if (!kind) return error(ErrorCode::Internal, "unknown reduction", s.loc);
  int64_t axis = stmt_attr_int(s, "axis");
  bool clear = stmt_attr_bool(s, "clear");
  int64_t outer = 1, inner = 1, len = src->shape[size_t(axis)];
  for (int64_t d = 0; d < axis; ++d) outer *= src->shape[size_t(d)];
  for (size_t d = size_t(axis) + 1; d < src->shape.size(); ++d) inner *= src->shape[d];
  VK k = kind_of(src->dtype);
  if (k == VK::F32 && dst->dtype == DType::F64) k = VK::F64;
  bool ints = k == VK::Index;
  Combine combine{*this, *kind};
  llvm::Type* kt = kind_type(k);

  auto write = [&](llvm::Value* out, llvm::Value* value) {
    Val v{value, k};
    if (!clear) v = finish(*this, *kind, v, load(*dst, out));
    store(*dst, out, v);
  };

  if (inner == 1) {
    return loop(ci(0), ci(outer), [&](llvm::Value* o) -> Status {
      llvm::Value* base = b.CreateMul(o, ci(len));
      if (k == VK::F32 && len >= int64_t(opts.f32_lanes)) {
        TG_ASSIGN_OR_RETURN(llvm::Value* r, vector_row(*this, combine, *src, base, len));
        write(o, r);
        return Status::ok();
      }
      llvm::Value* slot = entry_alloca(*this, kt);
      b.CreateStore(combine.prepare(convert(load(*src, base), k)), slot);
      TG_RETURN_IF_ERROR(loop(ci(1), ci(len), [&](llvm::Value* r) -> Status {
        llvm::Value* x = combine.prepare(convert(load(*src, b.CreateAdd(base, r)), k));
        b.CreateStore(combine(b.CreateLoad(kt, slot), x, ints), slot);
        return Status::ok();
      }));
      write(o, b.CreateLoad(kt, slot));
      return Status::ok();
    });
  }

  // Reduce across rows of `inner` elements: partials in a scratch row.
  uint64_t mark = scratch_mark();
  // The partials are accessed as the compute type (i64 partials use 8-byte f64 slots).
  Buffer* acc = scratch_buffer("reduce_acc", k == VK::F32 ? DType::F32 : DType::F64, {inner}, ir::Scope::Shared);
  auto acc_ptr = [&](llvm::Value* i) { return b.CreateInBoundsGEP(kt, acc->base, i); };
  Status st = loop(ci(0), ci(outer), [&](llvm::Value* o) -> Status {
    llvm::Value* row0 = b.CreateMul(o, ci(len * inner));
    TG_RETURN_IF_ERROR(loop(ci(0), ci(inner), [&](llvm::Value* i) -> Status {
      llvm::Value* x = combine.prepare(convert(load(*src, b.CreateAdd(row0, i)), k));
      annotate(b.CreateStore(x, acc_ptr(i)), scratch_alias());
      return Status::ok();
    }));
    TG_RETURN_IF_ERROR(loop(ci(1), ci(len), [&](llvm::Value* r) -> Status {
      llvm::Value* row = b.CreateAdd(row0, b.CreateMul(r, ci(inner)));
      return loop(ci(0), ci(inner), [&](llvm::Value* i) -> Status {
        llvm::Value* x = combine.prepare(convert(load(*src, b.CreateAdd(row, i)), k));
        llvm::LoadInst* a = b.CreateLoad(kt, acc_ptr(i));
        annotate(a, scratch_alias());
        annotate(b.CreateStore(combine(a, x, ints), acc_ptr(i)), scratch_alias());
        return Status::ok();
      });
    }));
    return loop(ci(0), ci(inner), [&](llvm::Value* i) -> Status {
      llvm::LoadInst* a = b.CreateLoad(kt, acc_ptr(i));
      annotate(a, scratch_alias());
      write(b.CreateAdd(b.CreateMul(o, ci(inner)), i), a);
      return Status::ok();
    });
  });
  scratch_release(mark);
  return st;
}

}  // namespace tegula::cpu
