/// \file
/// Statements: allocations, the tile ops under their thread plans (copy, fill, map), parallel
/// loops, element stores, loops, conditionals and barriers.
#include <set>

#include "ir/Analysis.h"
#include "plugins/hip/codegen/Emitter.h"

namespace tegula::hip {

using llvm::Value;

Status Emitter::block(const ir::Block& blk) {
  push_scope();
  for (const ir::Stmt& s : blk.stmts) {
    Status st = stmt(s);
    if (!st.is_ok()) {
      pop_scope();
      return st;
    }
  }
  pop_scope();
  return Status::ok();
}

Status Emitter::stmt(const ir::Stmt& s) {
  switch (s.op) {
    case ir::OpKind::Alloc: return emit_alloc(s);
    case ir::OpKind::Copy:
    case ir::OpKind::Fill:
    case ir::OpKind::Map: return emit_tile_op(s);
    case ir::OpKind::Store: return emit_store(s);
    case ir::OpKind::Barrier: barrier(); return Status::ok();
    case ir::OpKind::For:
    case ir::OpKind::Pipelined: return emit_for(s);
    case ir::OpKind::Parallel: return emit_parallel(s);
    case ir::OpKind::If: return emit_if(s);
    case ir::OpKind::Gemm: return emit_gemm(s);
    case ir::OpKind::Reduce: return emit_reduce(s);
    case ir::OpKind::Scan: return emit_scan(s);
    case ir::OpKind::AtomicAdd: return emit_atomic(s);
  }
  return not_implemented(&s, "this statement");
}

Status Emitter::emit_alloc(const ir::Stmt& s) {
  Buffer* buf = new_buffer();
  buf->name = s.name;
  buf->scope = s.type.scope;
  buf->dtype = s.type.dtype;
  buf->shape = s.type.shape;
  for (int64_t d : s.type.shape) buf->dims.push_back(ci(d));
  TG_ASSIGN_OR_RETURN(llvm::Type * t, storage_type(s.type.dtype));
  switch (s.type.scope) {
    case ir::Scope::Shared: {
      if (ir::is_opaque(s)) return not_implemented(&s, "opaque fragments");
      TG_ASSIGN_OR_RETURN(buf->layout, ir::get_shared_layout(s.attrs));
      if (buf->layout.stages > 1) return not_implemented(&s, "multi-stage shared buffers (pipelined prefetch)");
      if (!lds() || buf->layout.offset < 0)
        return error(ErrorCode::Internal, "hip: a shared buffer without a placement", s.loc);
      buf->base = b.CreateConstInBoundsGEP1_64(i8, lds(), uint64_t(buf->layout.offset));
      break;
    }
    case ir::Scope::Fragment: {
      if (ir::is_opaque(s)) return not_implemented(&s, "opaque fragments");
      TG_ASSIGN_OR_RETURN(buf->dist, ir::get_distribution(s.attrs, "layout"));
      buf->slots = buf->dist.value_count();
      buf->base = entry_alloca(llvm::ArrayType::get(t, uint64_t(buf->slots)), s.name);
      break;
    }
    case ir::Scope::Local:
      buf->base = entry_alloca(llvm::ArrayType::get(t, uint64_t(s.type.elements())), s.name);
      break;
    case ir::Scope::Global: return error(ErrorCode::Internal, "hip: a global alloc", s.loc);
  }
  bind_buffer(buf);
  return Status::ok();
}

Result<std::vector<Element>> Emitter::elements(const ir::Stmt& s, const ir::CopyPlan& plan,
                                               const std::vector<int64_t>& extent) {
  const ir::Distribution* dist = nullptr;
  std::vector<int64_t> bound = extent;
  if (plan.kind == ir::ThreadPlanKind::Fragment) {
    Buffer* f = find_buffer(plan.layout);
    if (!f || f->scope != ir::Scope::Fragment)
      return error(ErrorCode::Internal, "hip: plan.layout names no fragment", s.loc);
    dist = &f->dist;
    bound = f->shape;
  } else if (plan.kind == ir::ThreadPlanKind::Free) {
    dist = &plan.threads;
  } else {
    return not_implemented(&s, plan.kind == ir::ThreadPlanKind::Opaque ? "opaque (cooperative-matrix) plans"
                                                                       : "a tile op without a thread plan");
  }
  int rank = int(bound.size());
  if (dist->thread_count() != kernel.threads)
    return error(ErrorCode::Internal, "hip: a plan over another thread count", s.loc);
  // The thread's part of every coordinate (mixed radix over the thread factors).
  std::vector<Value*> base(size_t(rank), ci(0));
  int64_t radix = 1;
  for (const ir::Factor& f : dist->threads) {
    if (f.dim >= 0 && f.size > 1) {
      Value* digit = b.CreateURem(b.CreateUDiv(thread_id(), ci(radix)), ci(f.size));
      base[size_t(f.dim)] = b.CreateAdd(base[size_t(f.dim)], b.CreateMul(digit, ci(f.stride)));
    }
    radix *= f.size;
  }
  std::vector<int64_t> span = dist->span(rank);
  std::vector<Element> out;
  for (int64_t v = 0; v < dist->value_count(); ++v) {
    std::vector<int64_t> vc = dist->coords(0, v, rank);
    Element e;
    e.slot = v;
    bool dead = false;
    for (int d = 0; d < rank; ++d) {
      if (vc[size_t(d)] >= bound[size_t(d)]) dead = true;  // padding in every thread
      e.coords.push_back(b.CreateAdd(base[size_t(d)], ci(vc[size_t(d)])));
      if (span[size_t(d)] > bound[size_t(d)]) {
        Value* c = b.CreateICmpSLT(e.coords.back(), ci(bound[size_t(d)]));
        e.valid = e.valid ? b.CreateAnd(e.valid, c) : c;
      }
    }
    if (!dead) out.push_back(std::move(e));
  }
  return out;
}

/// The slot of fragment `op` that holds, in every thread, the element slot `v` of fragment
/// `exec` needs (broadcast along op's size-1 dimensions), or -1 when it depends on the thread.
static int64_t matching_slot(const Buffer& exec, int64_t v, const Buffer& op, int64_t threads) {
  int rank = exec.rank();
  int64_t found = -2;
  for (int64_t t = 0; t < threads; ++t) {
    std::vector<int64_t> need = exec.dist.coords(t, v, rank);
    for (int d = 0; d < rank; ++d)
      if (op.shape[size_t(d)] == 1) need[size_t(d)] = 0;
    int64_t slot = -1;
    for (int64_t u = 0; u < op.slots && slot < 0; ++u)
      if (op.dist.coords(t, u, rank) == need) slot = u;
    bool padding = false;
    for (int d = 0; d < rank; ++d) padding |= need[size_t(d)] >= exec.shape[size_t(d)];
    if (padding) continue;
    if (slot < 0 || (found >= 0 && found != slot)) return -1;
    found = slot;
  }
  return found < 0 ? 0 : found;
}

Result<Emitter::Access> Emitter::operand(const ir::TileRef& ref, const Element& e, const std::vector<int64_t>& extent,
                                         const ir::CopyPlan& plan, bool proven_inside) {
  Buffer* buf = find_buffer(ref.buffer);
  if (!buf) return error(ErrorCode::Internal, "hip: unknown buffer '" + ref.buffer + "'", ref.loc);
  Access a;
  if (buf->scope == ir::Scope::Fragment) {
    if (!ref.offsets.empty())
      return error(ErrorCode::Unsupported, "the hip backend does not implement fragment tiles with offsets yet",
                   ref.loc);
    if (plan.kind != ir::ThreadPlanKind::Fragment)
      return error(ErrorCode::Unsupported, "the hip backend does not implement a fragment under a free plan", ref.loc);
    if (buf->name == plan.layout) {
      a.address = slot_address(*buf, e.slot);
      return a;
    }
    Buffer* exec = find_buffer(plan.layout);
    if (!exec || exec->rank() != buf->rank())
      return error(ErrorCode::Unsupported,
                   "the hip backend does not implement a fragment operand of another rank than the map's (a "
                   "right-aligned broadcast of '" + buf->name + "'): copy it to a shared tile first",
                   ref.loc);
    int64_t slot = matching_slot(*exec, e.slot, *buf, kernel.threads);
    if (slot < 0)
      return error(ErrorCode::Unsupported,
                   "the hip backend does not implement reading fragment '" + buf->name +
                       "' in a layout whose slots differ per thread from '" + exec->name + "'s",
                   ref.loc);
    a.address = slot_address(*buf, slot);
    return a;
  }
  // A view of a global tensor (ir::leading_axes) holds one index, its offset, along each
  // leading axis; a lower-rank operand of a map broadcasts along the extent's leading axes
  // (right-aligned, as numpy does). Either way the element's coordinate along extent axis
  // `ed` addresses buffer axis `ed - skip + lead`.
  size_t lead = ir::leading_axes(size_t(buf->rank()), extent.size());
  size_t skip = extent.size() > size_t(buf->rank()) ? extent.size() - size_t(buf->rank()) : 0;
  if (e.coords.size() != extent.size())
    return error(ErrorCode::Internal, "hip: an element of " + std::to_string(e.coords.size()) + " coordinates for an extent of " +
                                          std::to_string(extent.size()), ref.loc);
  std::vector<Value*> coords;
  for (int d = 0; d < buf->rank(); ++d) {
    Value* c = ci(0);
    if (size_t(d) >= lead) {
      size_t ed = size_t(d) - lead + skip;
      c = e.coords[ed];
      if (buf->shape[size_t(d)] == 1 && extent[ed] != 1) c = ci(0);  // broadcast
    }
    if (d < int(ref.offsets.size())) {
      TG_ASSIGN_OR_RETURN(Val o, expr_as(ref.offsets[size_t(d)], VK::Index));
      c = b.CreateAdd(o.v, c);
    }
    coords.push_back(c);
  }
  TG_ASSIGN_OR_RETURN(a.address, address(*buf, coords));
  if (buf->scope == ir::Scope::Global && !proven_inside) a.inside = in_bounds(*buf, coords);
  return a;
}

static Result<std::vector<int64_t>> op_extent(const ir::Stmt& s, Emitter& em) {
  if (s.op == ir::OpKind::Map) {
    Buffer* dst = em.find_buffer(s.target().buffer);
    if (!dst || !s.target().offsets.empty()) return not_implemented(&s, "a map into a tile with offsets");
    return dst->shape;
  }
  std::vector<int64_t> given = ir::stmt_attr_ints(s, "extent");
  if (!given.empty()) return given;
  for (size_t i = s.tiles.size(); i-- > 0;) {
    Buffer* buf = em.find_buffer(s.tiles[i].buffer);
    if (buf && buf->scope != ir::Scope::Global && s.tiles[i].offsets.empty()) return buf->shape;
  }
  return not_implemented(&s, "a tile op whose extent no operand gives");
}

Status Emitter::emit_tile_op(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(ir::CopyPlan plan, ir::get_copy_plan(s));
  if (plan.async || plan.engine != ir::CopyEngine::None) return not_implemented(&s, "asynchronous copies");
  if (plan.forward != ir::ForwardedOperand::None) return not_implemented(&s, "forwarded gemm operands");
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, op_extent(s, *this));
  TG_ASSIGN_OR_RETURN(std::vector<Element> elems, elements(s, plan, extent));
  const ir::TileRef& dst_ref = s.op == ir::OpKind::Copy ? s.copy_dst() : s.target();
  Buffer* dst = find_buffer(dst_ref.buffer);
  Buffer* src = s.op == ir::OpKind::Copy ? find_buffer(s.copy_src().buffer) : nullptr;
  double pad = ir::stmt_attr_float(s, "pad");
  for (const Element& e : elems) {
    auto body = [&]() -> Status {
      TG_ASSIGN_OR_RETURN(Access d, operand(dst_ref, e, extent, plan, plan.dst_in.all()));
      Val v;
      if (s.op == ir::OpKind::Copy && src->dtype == dst->dtype) {
        // Same dtype: the bits move as they are (fp8 and tf32 included).
        TG_ASSIGN_OR_RETURN(Access a, operand(s.copy_src(), e, extent, plan, plan.src_in.all()));
        TG_ASSIGN_OR_RETURN(llvm::Constant * pad_bits, encoded_constant(src->dtype, pad));
        Value* raw = nullptr;
        if (a.inside) {
          TG_ASSIGN_OR_RETURN(raw, masked_load_raw(*src, a.address, a.inside, pad_bits));
        } else {
          raw = b.CreateLoad(pad_bits->getType(), a.address);
        }
        if (!d.inside) {
          b.CreateStore(raw, d.address);
          return Status::ok();
        }
        return if_then(d.inside, [&] {
          b.CreateStore(raw, d.address);
          return Status::ok();
        });
      }
      if (s.op == ir::OpKind::Copy) {
        TG_ASSIGN_OR_RETURN(Access a, operand(s.copy_src(), e, extent, plan, plan.src_in.all()));
        // Past the tensor's edge nothing is loaded and the element reads as `pad`.
        TG_ASSIGN_OR_RETURN(v, a.inside ? masked_load(*src, a.address, a.inside) : load_at(*src, a.address));
        if (a.inside) {
          Val p = convert({llvm::ConstantFP::get(f64, pad), VK::F64}, v.k);
          v.v = b.CreateSelect(a.inside, v.v, p.v);
        }
      } else {
        Current cur{&e, &extent, &s, &plan};
        const Current* saved = current;
        current = &cur;
        // A literal is its exact value rounded once to the destination, as the reference stores it.
        Result<Val> r = s.value()->kind == ir::ExprKind::FloatImm
                            ? Result<Val>(Val{llvm::ConstantFP::get(f64, s.value()->float_value), VK::F64})
                            : expr(s.value());
        current = saved;
        TG_ASSIGN_OR_RETURN(v, std::move(r));
      }
      if (!d.inside) return store_at(*dst, d.address, v);
      return if_then(d.inside, [&] { return store_at(*dst, d.address, v); });
    };
    Status st = e.valid ? if_then(e.valid, body) : body();
    TG_RETURN_IF_ERROR(st);
  }
  return Status::ok();
}

Status Emitter::emit_parallel(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(ir::CopyPlan plan, ir::get_copy_plan(s));
  std::vector<int64_t> extent;
  for (const ir::Expr& e : s.exprs) {
    std::optional<int64_t> c = ir::const_int(e);
    if (!c) return not_implemented(&s, "a parallel loop of symbolic extent");
    extent.push_back(*c);
  }
  TG_ASSIGN_OR_RETURN(std::vector<Element> elems, elements(s, plan, extent));
  for (const Element& e : elems) {
    auto body = [&]() -> Status {
      push_scope();
      for (size_t i = 0; i < s.vars.size(); ++i) bind_var(s.vars[i], {e.coords[i], VK::Index});
      Status st = block(s.body());
      pop_scope();
      return st;
    };
    TG_RETURN_IF_ERROR(e.valid ? if_then(e.valid, body) : body());
  }
  return Status::ok();
}

Status Emitter::emit_store(const ir::Stmt& s) {
  Buffer* buf = find_buffer(s.target().buffer);
  if (!buf) return error(ErrorCode::Internal, "hip: unknown buffer '" + s.target().buffer + "'", s.loc);
  if (buf->scope == ir::Scope::Fragment) return not_implemented(&s, "element stores into a fragment");
  std::vector<Value*> idx;
  for (const ir::Expr& i : s.target().offsets) {
    TG_ASSIGN_OR_RETURN(Val v, expr_as(i, VK::Index));
    idx.push_back(v.v);
  }
  TG_ASSIGN_OR_RETURN(Value * addr, address(*buf, idx));
  TG_ASSIGN_OR_RETURN(Val v, s.value()->kind == ir::ExprKind::FloatImm
                                 ? Result<Val>(Val{llvm::ConstantFP::get(f64, s.value()->float_value), VK::F64})
                                 : expr(s.value()));
  if (buf->scope != ir::Scope::Global) return store_at(*buf, addr, v);
  // A store outside its tensor is dropped.
  return if_then(in_bounds(*buf, idx), [&] { return store_at(*buf, addr, v); });
}

Status Emitter::emit_for(const ir::Stmt& s) {
  if (s.op == ir::OpKind::Pipelined) {
    TG_ASSIGN_OR_RETURN(ir::PipelinePlan plan, ir::get_pipeline_plan(s));
    if (plan.pipelined) return not_implemented(&s, "pipelined loops that prefetch");
  }
  TG_ASSIGN_OR_RETURN(Val lo, expr_as(s.lo(), VK::Index));
  TG_ASSIGN_OR_RETURN(Val hi, expr_as(s.hi(), VK::Index));
  return loop(lo.v, hi.v, [&](Value* i) -> Status {
    push_scope();
    bind_var(s.vars[0], {i, VK::Index});
    Status st = block(s.body());
    pop_scope();
    return st;
  });
}

Status Emitter::emit_if(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(Val c, expr_as(s.cond(), VK::Bool));
  if (s.blocks.size() < 2) return if_then(c.v, [&] { return block(s.blocks[0]); });
  return if_then(
      c.v, [&] { return block(s.blocks[0]); }, [&] { return block(s.blocks[1]); });
}

}  // namespace tegula::hip
