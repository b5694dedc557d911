/// \file
/// copy, fill, atomic_add and map. A tile op is a loop nest over its extent whose innermost
/// loop runs along the last dimension; at the edges of global tensors the valid part of
/// each row is computed once (a row is split into pad, copy and pad ranges), so the inner
/// loops have no per-element masks and vectorise. Non-global tiles must lie inside their
/// buffer: when dynamic offsets put one outside, the op is skipped and a runtime error
/// reported.
#include "llvm/IR/Intrinsics.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include "plugins/cpu/codegen/Emitter.h"

namespace tegula::cpu {
namespace {

struct Tile {
  Buffer* buf = nullptr;
  std::vector<llvm::Value*> origin;  ///< one i64 per dimension
  std::shared_ptr<Buffer> view;      ///< owns buf when the tile is a rank-dropping view
};

/// A rank-dropping view (ir::leading_axes): the tensor seen from its element at the leading
/// offsets, as a tensor of its trailing axes, so the loops below see one form. A leading
/// offset outside the tensor leaves nothing to read or write: the view's first axis is then
/// of length 0 (every element masked) and its base the tensor's first element.
Tile view_of(Emitter& e, Tile whole, size_t lead) {
  const Buffer& t = *whole.buf;
  llvm::Value* inside = e.b.getTrue();
  llvm::Value* start = e.ci(0);
  for (size_t d = 0; d < lead; ++d) {
    inside = e.b.CreateAnd(inside, e.b.CreateICmpULT(whole.origin[d], t.dims[d]));
    start = e.b.CreateAdd(start, e.b.CreateMul(whole.origin[d], t.strides[d]));
  }
  auto view = std::make_shared<Buffer>(t);
  view->base = e.elem_ptr(t, e.b.CreateSelect(inside, start, e.ci(0)));
  auto drop = [lead](auto& v) { v.erase(v.begin(), v.begin() + std::ptrdiff_t(lead)); };
  drop(view->shape);
  drop(view->dims);
  drop(view->strides);
  drop(whole.origin);
  view->dims[0] = e.b.CreateSelect(inside, view->dims[0], e.ci(0));
  view->shape[0] = -1;  // no longer a constant
  whole.buf = view.get();
  whole.view = std::move(view);
  return whole;
}

/// Operand `t` of a tile op whose extent has `extent_rank` entries.
Result<Tile> tile_of(Emitter& e, const ir::TileRef& t, size_t extent_rank) {
  Tile tile;
  tile.buf = e.find_buffer(t.buffer);
  if (!tile.buf) return error(ErrorCode::Internal, "unbound buffer '" + t.buffer + "'", t.loc);
  for (const ir::Expr& o : t.offsets) {
    TG_ASSIGN_OR_RETURN(llvm::Value* v, e.index_expr(o));
    tile.origin.push_back(v);
  }
  tile.origin.resize(size_t(tile.buf->rank()), e.ci(0));
  size_t lead = ir::leading_axes(size_t(tile.buf->rank()), extent_rank);
  return lead == 0 ? tile : view_of(e, std::move(tile), lead);
}

/// A non-global tile lies wholly inside its buffer (an i1; true for globals, which mask).
llvm::Value* tile_fits(Emitter& e, const Tile& t, const std::vector<int64_t>& extent) {
  llvm::Value* ok = e.b.getTrue();
  if (t.buf->global()) return ok;
  for (size_t d = 0; d < extent.size(); ++d) {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(t.origin[d])) {
      if (c->getSExtValue() >= 0 && c->getSExtValue() + extent[d] <= t.buf->shape[d]) continue;
    }
    llvm::Value* lo = e.b.CreateICmpSGE(t.origin[d], e.ci(0));
    llvm::Value* hi = e.b.CreateICmpSLE(e.b.CreateAdd(t.origin[d], e.ci(extent[d])), e.ci(t.buf->shape[d]));
    ok = e.b.CreateAnd(ok, e.b.CreateAnd(lo, hi));
  }
  return ok;
}

llvm::Value* clamp(Emitter& e, llvm::Value* x, llvm::Value* lo, llvm::Value* hi) {
  llvm::Value* c = e.b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, lo);
  return e.b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, c, hi);
}

/// The part [lo, hi) of a row of `extent` elements starting at `origin` that lies in
/// [0, dim).
std::pair<llvm::Value*, llvm::Value*> valid_range(Emitter& e, llvm::Value* origin, llvm::Value* dim, int64_t extent) {
  llvm::Value* zero = e.ci(0);
  llvm::Value* len = e.ci(extent);
  llvm::Value* lo = clamp(e, e.b.CreateNeg(origin), zero, len);
  llvm::Value* hi = clamp(e, e.b.CreateSub(dim, origin), lo, len);
  return {lo, hi};
}

/// Walks the rows of a tile op: for every index of the outer dimensions whose rows are
/// inside the destination, calls row(dst row base, src row base, src row inside) with the
/// linear index of element 0 of the row in each buffer.
Status for_each_row(Emitter& e, const std::vector<int64_t>& extent, const Tile* src, const Tile& dst,
                    const std::function<Status(llvm::Value* dbase, llvm::Value* sbase, llvm::Value* src_ok)>& row) {
  size_t r = extent.size();
  std::vector<int64_t> outer(extent.begin(), extent.end() - 1);
  return e.loop_nest(outer, [&](const std::vector<llvm::Value*>& idx) -> Status {
    llvm::Value* dst_ok = e.b.getTrue();
    llvm::Value* src_ok = e.b.getTrue();
    std::vector<llvm::Value*> dc(r), sc(r);
    for (size_t d = 0; d + 1 < r; ++d) {
      dc[d] = e.b.CreateAdd(dst.origin[d], idx[d]);
      if (dst.buf->global()) dst_ok = e.b.CreateAnd(dst_ok, e.b.CreateICmpULT(dc[d], dst.buf->dims[d]));
      if (!src) continue;
      sc[d] = e.b.CreateAdd(src->origin[d], idx[d]);
      if (src->buf->global()) src_ok = e.b.CreateAnd(src_ok, e.b.CreateICmpULT(sc[d], src->buf->dims[d]));
    }
    dc[r - 1] = dst.origin[r - 1];
    if (src) sc[r - 1] = src->origin[r - 1];
    return e.if_then(dst_ok, [&]() -> Status {
      llvm::Value* dbase = e.linear_index(*dst.buf, dc);
      llvm::Value* sbase = src ? e.linear_index(*src->buf, sc) : nullptr;
      return row(dbase, sbase, src_ok);
    });
  });
}

/// Elements of a destination row whose valid range is [lo, hi).
std::pair<llvm::Value*, llvm::Value*> dst_range(Emitter& e, const Tile& dst, int64_t len) {
  size_t last = dst.origin.size() - 1;
  if (!dst.buf->global()) return {e.ci(0), e.ci(len)};
  return valid_range(e, dst.origin[last], dst.buf->dims[last], len);
}

/// The same dtype on both sides with nothing to canonicalise: copy the bits.
bool bitwise_copy(DType src, DType dst) {
  if (src != dst) return false;
  return src == DType::F32 || src == DType::F64 || src == DType::I8 || src == DType::U8 || src == DType::I32;
}

/// Rows of a tile in a global tensor are short streams a stride apart, which the hardware
/// prefetchers pick up late: ask for the row a few rows ahead while this one is copied.
/// (Prefetches never fault, so rows past the tile or the tensor cost nothing but a slot.)
void prefetch_row_ahead(Emitter& e, const Buffer& src, llvm::Value* row, int64_t len) {
  constexpr int64_t kRowsAhead = 4;
  constexpr int64_t kMaxLines = 32;
  size_t last = src.strides.size() - 1;
  llvm::Value* ahead = e.b.CreateAdd(row, e.b.CreateMul(e.ci(kRowsAhead), src.strides[last - 1]));
  llvm::Value* p = e.elem_ptr(src, ahead);
  int64_t lines = std::min<int64_t>((len * int64_t(dtype_size(src.dtype)) + 63) / 64, kMaxLines);
  llvm::Function* prefetch = llvm::Intrinsic::getDeclaration(&e.mod, llvm::Intrinsic::prefetch, {e.ptr});
  for (int64_t l = 0; l < lines; ++l)
    e.b.CreateCall(prefetch, {e.b.CreateConstGEP1_64(e.i8, p, uint64_t(l * 64)), e.b.getInt32(0), e.b.getInt32(3), e.b.getInt32(1)});
}

Status copy_tiles(Emitter& e, const Tile& src, const Tile& dst, const std::vector<int64_t>& extent, double pad) {
  llvm::Value* fits = e.b.CreateAnd(tile_fits(e, src, extent), tile_fits(e, dst, extent));
  e.flag_error(e.b.CreateNot(fits), kRuntimeTileOutOfRange);
  int64_t len = extent.back();
  bool raw = bitwise_copy(src.buf->dtype, dst.buf->dtype);
  llvm::Constant* pad_bits = e.encoded_constant(dst.buf->dtype, pad);
  size_t last = extent.size() - 1;
  return e.if_then(fits, [&]() -> Status {
    return for_each_row(e, extent, &src, dst, [&](llvm::Value* dbase, llvm::Value* sbase, llvm::Value* src_ok) -> Status {
      if (src.buf->global() && extent.size() >= 2) prefetch_row_ahead(e, *src.buf, sbase, len);
      auto [dlo, dhi] = dst_range(e, dst, len);
      llvm::Value* slo = e.ci(0);
      llvm::Value* shi = e.ci(len);
      if (src.buf->global()) std::tie(slo, shi) = valid_range(e, src.origin[last], src.buf->dims[last], len);
      // A source row outside the tensor reads as padding throughout.
      slo = e.b.CreateSelect(src_ok, slo, e.ci(0));
      shi = e.b.CreateSelect(src_ok, shi, e.ci(0));
      llvm::Value* c0 = clamp(e, slo, dlo, dhi);
      llvm::Value* c1 = clamp(e, shi, c0, dhi);
      auto pad_range = [&](llvm::Value* lo, llvm::Value* hi) {
        return e.loop(lo, hi, [&](llvm::Value* i) -> Status {
          e.store_raw(*dst.buf, e.b.CreateAdd(dbase, i), pad_bits);
          return Status::ok();
        });
      };
      TG_RETURN_IF_ERROR(pad_range(dlo, c0));
      TG_RETURN_IF_ERROR(e.loop(c0, c1, [&](llvm::Value* i) -> Status {
        llvm::Value* s = e.b.CreateAdd(sbase, i);
        llvm::Value* d = e.b.CreateAdd(dbase, i);
        if (raw) e.store_raw(*dst.buf, d, e.load_raw(*src.buf, s));
        else e.store(*dst.buf, d, e.load(*src.buf, s));
        return Status::ok();
      }));
      return pad_range(c1, dhi);
    });
  });
}

Result<std::vector<int64_t>> extent_of(Emitter& e, const ir::Stmt& s) {
  return ir::tile_op_extent(s, e.visible_buffers(s));
}

}  // namespace

Status Emitter::emit_copy(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, extent_of(*this, s));
  TG_ASSIGN_OR_RETURN(Tile src, tile_of(*this, s.copy_src(), extent.size()));
  TG_ASSIGN_OR_RETURN(Tile dst, tile_of(*this, s.copy_dst(), extent.size()));
  double pad = stmt_attr_float(s, "pad");
  if (src.buf->name != dst.buf->name) return copy_tiles(*this, src, dst, extent, pad);
  // Within one buffer the tiles may overlap: read the whole tile first, as a copy does.
  uint64_t mark = scratch_mark();
  Tile tmp{scratch_buffer("copy_tmp", src.buf->dtype, extent, ir::Scope::Shared), {}, nullptr};
  tmp.origin.assign(extent.size(), ci(0));
  Status st = copy_tiles(*this, src, tmp, extent, pad);
  if (st.is_ok()) st = copy_tiles(*this, tmp, dst, extent, pad);
  scratch_release(mark);
  return st;
}

Status Emitter::emit_fill(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, extent_of(*this, s));
  TG_ASSIGN_OR_RETURN(Tile dst, tile_of(*this, s.target(), extent.size()));
  TG_ASSIGN_OR_RETURN(llvm::Value* bits, stored_bits(s.value(), dst.buf->dtype));
  llvm::Value* fits = tile_fits(*this, dst, extent);
  flag_error(b.CreateNot(fits), kRuntimeTileOutOfRange);
  int64_t len = extent.back();
  return if_then(fits, [&]() -> Status {
    return for_each_row(*this, extent, nullptr, dst, [&](llvm::Value* dbase, llvm::Value*, llvm::Value*) -> Status {
      auto [lo, hi] = dst_range(*this, dst, len);
      return loop(lo, hi, [&](llvm::Value* i) -> Status {
        store_raw(*dst.buf, b.CreateAdd(dbase, i), bits);
        return Status::ok();
      });
    });
  });
}

/// dst[i] += v atomically. f32 and f64 use the hardware add (which rounds exactly as the
/// reference's float64 sum rounded to the destination); other dtypes a compare-exchange
/// loop that computes in f64 (i64 for integer values) and stores with the dtype's rounding.
static void atomic_add_element(Emitter& e, const Buffer& dst, llvm::Value* linear, Val v) {
  llvm::IRBuilder<>& b = e.b;
  llvm::Value* p = e.elem_ptr(dst, linear);
  DType d = dst.dtype;
  if ((d == DType::F32 && v.k == VK::F32) || (d == DType::F64 && (v.k == VK::F32 || v.k == VK::F64))) {
    Val x = e.convert(v, d == DType::F32 ? VK::F32 : VK::F64);
    b.CreateAtomicRMW(llvm::AtomicRMWInst::FAdd, p, x.v, llvm::MaybeAlign(dtype_size(d)), llvm::AtomicOrdering::Monotonic);
    return;
  }
  llvm::Type* st = e.storage_type(d);
  llvm::Type* it = b.getIntNTy(unsigned(dtype_size(d) * 8));
  llvm::Function* f = e.function();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* retry = llvm::BasicBlock::Create(e.ctx, "cas", f);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(e.ctx, "cas_done", f);
  llvm::LoadInst* first = b.CreateLoad(it, p);
  first->setAtomic(llvm::AtomicOrdering::Monotonic);
  first->setAlignment(llvm::Align(dtype_size(d)));
  b.CreateBr(retry);
  b.SetInsertPoint(retry);
  llvm::PHINode* old = b.CreatePHI(it, 2);
  old->addIncoming(first, pre);
  Val current = e.decode(d, b.CreateBitCast(old, st));
  Val sum;
  if (current.k == VK::Index && v.k == VK::Index) {
    sum = Val{b.CreateAdd(current.v, v.v), VK::Index};
  } else {
    llvm::Value* x = e.convert(current, VK::F64).v;
    sum = Val{b.CreateFAdd(x, e.convert(v, VK::F64).v), VK::F64};
  }
  llvm::Value* next = b.CreateBitCast(e.encode(d, sum), it);
  llvm::Value* pair = b.CreateAtomicCmpXchg(p, old, next, llvm::MaybeAlign(dtype_size(d)), llvm::AtomicOrdering::Monotonic,
                                            llvm::AtomicOrdering::Monotonic);
  old->addIncoming(b.CreateExtractValue(pair, 0), retry);
  b.CreateCondBr(b.CreateExtractValue(pair, 1), done, retry);
  b.SetInsertPoint(done);
}

Status Emitter::emit_atomic_add(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, extent_of(*this, s));
  TG_ASSIGN_OR_RETURN(Tile src, tile_of(*this, s.atomic_src(), extent.size()));
  TG_ASSIGN_OR_RETURN(Tile dst, tile_of(*this, s.atomic_dst(), extent.size()));
  llvm::Value* fits = tile_fits(*this, src, extent);
  flag_error(b.CreateNot(fits), kRuntimeTileOutOfRange);
  int64_t len = extent.back();
  return if_then(fits, [&]() -> Status {
    return for_each_row(*this, extent, &src, dst, [&](llvm::Value* dbase, llvm::Value* sbase, llvm::Value*) -> Status {
      auto [lo, hi] = dst_range(*this, dst, len);
      return loop(lo, hi, [&](llvm::Value* i) -> Status {
        Val v = load(*src.buf, b.CreateAdd(sbase, i));
        atomic_add_element(*this, *dst.buf, b.CreateAdd(dbase, i), v);
        return Status::ok();
      });
    });
  });
}

/// Whether a map expression needs the element's coordinates, not only its linear index:
/// a bare buffer broadcasts (has a size-1 dimension where the destination does not), or
/// the expression reads an element index (idx), which is then a loop variable of the nest.
static bool needs_coords(Emitter& e, const ir::Expr& x, const Buffer& dst) {
  if (x->kind == ir::ExprKind::ElemIndex) return true;
  if (x->kind == ir::ExprKind::Tile) {
    const Buffer* buf = e.find_buffer(x->name);
    return !buf || buf->shape != dst.shape;
  }
  for (const ir::Expr& a : x->args)
    if (needs_coords(e, a, dst)) return true;
  return false;
}

Status Emitter::emit_map(const ir::Stmt& s) {
  Buffer* dst = find_buffer(s.target().buffer);
  if (!dst) return error(ErrorCode::Internal, "unbound map destination", s.loc);
  MapIndex index;
  const MapIndex* saved = map_index;
  map_index = &index;
  Status st;
  if (!needs_coords(*this, s.value(), *dst)) {
    // No broadcasting and no element index: one flat loop, the longest the vectoriser can get.
    st = loop(ci(0), ci(dst->elements()), [&](llvm::Value* i) -> Status {
      index.flat = i;
      TG_ASSIGN_OR_RETURN(llvm::Value* bits, stored_bits(s.value(), dst->dtype));
      store_raw(*dst, i, bits);
      return Status::ok();
    });
  } else {
    st = loop_nest(dst->shape, [&](const std::vector<llvm::Value*>& idx) -> Status {
      index.coords = idx;
      TG_ASSIGN_OR_RETURN(llvm::Value* bits, stored_bits(s.value(), dst->dtype));
      store_raw(*dst, linear_index(*dst, idx), bits);
      return Status::ok();
    });
  }
  map_index = saved;
  return st;
}

}  // namespace tegula::cpu
