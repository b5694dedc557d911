// Tile ops that move or compute elements where their plan says: copy (masked at tensor
// edges, with pad), atomic_add, fill and map (with broadcast operands).
#include "core/DType.h"
#include "ir/Analysis.h"
#include "ir/lower/Lowered.h"

#include <cstdint>
#include <functional>
#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

namespace {

bool in_memory(const Buf& b) { return b.scope == ir::Scope::Global || b.scope == ir::Scope::Shared; }

}  // namespace

/// The exec distribution of a tile op: the named fragment's layout, or the free plan.
static Result<ir::Distribution> plan_distribution(const ir::Stmt& s, KernelGen& g, const std::vector<int64_t>& extent,
                                                  std::string& fragment) {
  TG_ASSIGN_OR_RETURN(ir::CopyPlan plan, ir::get_copy_plan(s));
  if (plan.kind == ir::ThreadPlanKind::Fragment) {
    fragment = plan.layout;
    Buf* f = g.find_buf(fragment);
    if (!f || f->scope != ir::Scope::Fragment) return error(ErrorCode::Verify, "vulkan: plan.layout names no fragment", s.loc);
    return f->dist;
  }
  if (plan.kind == ir::ThreadPlanKind::Free) return plan.threads;
  return ir::free_distribution(extent, g.k_.threads, 1);
}

Status KernelGen::gen_copy(const ir::Stmt& s, bool atomic) {
  Buf* src = find_buf(s.tiles[0].buffer);
  Buf* dst = find_buf(s.tiles[1].buffer);
  if (!src || !dst) return fail(s.loc, "unbound copy operand");
  // A forwarded copy (ir/lower/ForwardOperands.cpp): the gemm loads from its source.
  TG_ASSIGN_OR_RETURN(ir::CopyPlan plan, ir::get_copy_plan(s));
  if (plan.forward != ir::ForwardedOperand::None) {
    if (!dst->forwarded || src->scope != ir::Scope::Global) return fail(s.loc, "plan.forward on a copy into a tile that is not forwarded");
    forwarded_[dst->name] = &s;
    return Status::ok();
  }
  ir::BufferMap infos;
  for (Buf* b : {src, dst}) infos[b->name] = ir::BufferInfo{b->scope, b->dtype, b->shape, {}};
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, ir::tile_op_extent(s, infos));
  if (src->opaque || dst->opaque) {
    if (atomic || (src->opaque && dst->opaque)) return fail(s.loc, "this op on an opaque (cooperative-matrix) fragment");
    return opaque_copy(s, src, dst, extent);
  }
  TG_ASSIGN_OR_RETURN(std::vector<Value> so, tile_origin(s.tiles[0]));
  TG_ASSIGN_OR_RETURN(std::vector<Value> dso, tile_origin(s.tiles[1]));
  std::string exec_name;
  TG_ASSIGN_OR_RETURN(ir::Distribution dist, plan_distribution(s, *this, extent, exec_name));
  int rank = int(extent.size());
  // A fragment operand other than the exec fragment: which of its slots holds each element.
  std::vector<int64_t> src_map, dst_map;
  if (src->scope == ir::Scope::Fragment && src->name != exec_name) {
    TG_ASSIGN_OR_RETURN(src_map, map_slots(dist, extent, src->dist, src->shape));
  }
  if (dst->scope == ir::Scope::Fragment && dst->name != exec_name) {
    TG_ASSIGN_OR_RETURN(dst_map, map_slots(dist, extent, dst->dist, dst->shape));
  }
  double pad = atomic ? 0.0 : ir::stmt_attr_float(s, "pad");
  bool raw = !atomic && in_memory(*src) && in_memory(*dst) && src->dtype == dst->dtype;
  Exec e = bind(dist, rank);
  if (raw && src->scope == ir::Scope::Global && dst->scope == ir::Scope::Shared && plan.vec > 1) {
    auto vector_body = [&] { return gen_vector_copy(s, *src, *dst, e, extent, so, dso, pad); };
    bool done = false;
    if (e.replicated) b_.if_(e.primary, [&] { done = vector_body(); });
    else done = vector_body();
    if (done) return Status::ok();
  }
  if (dst->packed) return fail(s.loc, "packed shared tile '" + dst->name + "' written by a copy that does not move whole 16-byte words");
  auto body = [&] {
    for_slots(e, extent, [&](int64_t v, const std::vector<Value>& c) {
      if (raw) {
        write_memory_raw(*dst, add_origin(dso, c), read_memory_raw(*src, add_origin(so, c), pad));
        return;
      }
      Value value;
      if (src->scope == ir::Scope::Fragment) value = read_slot(*src, src_map.empty() ? v : src_map[size_t(v)]);
      else value = read_memory(*src, add_origin(so, c), pad);
      if (dst->scope == ir::Scope::Fragment) write_slot(*dst, dst_map.empty() ? v : dst_map[size_t(v)], value);
      else if (atomic) atomic_add_global(*dst, add_origin(dso, c), value);
      else write_memory(*dst, add_origin(dso, c), value);
    });
  };
  if (in_memory(*dst) && e.replicated) b_.if_(e.primary, body);
  else body();
  return Status::ok();
}

/// A literal fill value rounds once, on the host, from its full double value (the IR's
/// semantics; an f32 literal constant would round f64 fills twice, or overflow); the
/// rounded value is exact in the register type. Anything else is computed.
Result<Value> KernelGen::fill_value(const ir::Expr& e, DType d) {
  if (e->kind != ir::ExprKind::FloatImm && e->kind != ir::ExprKind::IntImm) return expr(e);
  double v = e->kind == ir::ExprKind::FloatImm ? e->float_value : double(e->int_value);
  T ty = Conversions::value_type(d);
  double r = round_to_dtype(d, v);
  if (ty == T::Bool) return b_.cb(r != 0);
  return b_.c(ty, r);
}

Status KernelGen::gen_fill(const ir::Stmt& s) {
  Buf* dst = find_buf(s.target().buffer);
  if (!dst) return fail(s.loc, "unbound fill target");
  ir::BufferMap infos;
  infos[dst->name] = ir::BufferInfo{dst->scope, dst->dtype, dst->shape, {}};
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, ir::tile_op_extent(s, infos));
  TG_ASSIGN_OR_RETURN(std::vector<Value> origin, tile_origin(s.target()));
  TG_ASSIGN_OR_RETURN(Value value, fill_value(s.value(), dst->dtype));
  if (dst->opaque) return opaque_fill(*dst, value);
  std::string exec_name;
  TG_ASSIGN_OR_RETURN(ir::Distribution dist, plan_distribution(s, *this, extent, exec_name));
  Exec e = bind(dist, int(extent.size()));
  if (dst->scope == ir::Scope::Fragment) {
    std::vector<int64_t> map;
    if (dst->name != exec_name) {
      TG_ASSIGN_OR_RETURN(map, map_slots(dist, extent, dst->dist, dst->shape));
    }
    Value rounded = cv_.round(dst->dtype, value);
    for_slots(e, extent, [&](int64_t v, const std::vector<Value>&) {
      store_raw(*dst, b_.ci(int32_t(map.empty() ? v : map[size_t(v)])), rounded);
    });
    return Status::ok();
  }
  if (!in_memory(*dst)) return fail(s.loc, "fill of a local buffer");
  Value raw = cv_.encode(dst->dtype, value);
  auto body = [&] {
    for_slots(e, extent, [&](int64_t, const std::vector<Value>& c) { write_memory_raw(*dst, add_origin(origin, c), raw); });
  };
  if (e.replicated) b_.if_(e.primary, body);
  else body();
  return Status::ok();
}

Status KernelGen::gen_map(const ir::Stmt& s) {
  Buf* dst = find_buf(s.target().buffer);
  if (!dst) return fail(s.loc, "unbound map target");
  if (dst->scope != ir::Scope::Fragment && dst->scope != ir::Scope::Shared) return fail(s.loc, "map into a global or local buffer");
  if (dst->opaque) return opaque_map(s, *dst);
  std::string exec_name;
  TG_ASSIGN_OR_RETURN(ir::Distribution dist, plan_distribution(s, *this, dst->shape, exec_name));
  // Fragment operands: their slot for each element of the exec distribution.
  std::map<std::string, std::vector<int64_t>> maps;
  std::vector<std::string> operands;
  std::function<void(const ir::Expr&)> walk = [&](const ir::Expr& x) {
    if (x->kind == ir::ExprKind::Tile) operands.push_back(x->name);
    for (const ir::Expr& a : x->args) walk(a);
  };
  walk(s.value());
  if (dst->scope == ir::Scope::Fragment) operands.push_back(dst->name);
  for (const std::string& name : operands) {
    Buf* b = find_buf(name);
    if (!b || b->scope != ir::Scope::Fragment || maps.count(name)) continue;
    if (name == exec_name) {
      std::vector<int64_t> id(size_t(dist.value_count()));
      for (size_t i = 0; i < id.size(); ++i) id[i] = int64_t(i);
      maps[name] = id;
      continue;
    }
    TG_ASSIGN_OR_RETURN(maps[name], map_slots(dist, dst->shape, b->dist, b->shape));
  }
  Exec e = bind(dist, int(dst->shape.size()));
  Status st;
  auto body = [&] {
    for_slots(e, dst->shape, [&](int64_t v, const std::vector<Value>& c) {
      if (!st.is_ok()) return;
      MapCtx ctx;
      ctx.coords = c;
      ctx.element_coords = true;
      for (const auto& [name, m] : maps) ctx.slot_of[name] = m[size_t(v)];
      auto value = expr(s.value(), &ctx);
      if (!value.is_ok()) {
        st = value.status();
        return;
      }
      if (dst->scope == ir::Scope::Fragment) write_slot(*dst, maps.at(dst->name)[size_t(v)], *value);
      else write_memory(*dst, c, *value);
    });
  };
  if (dst->scope == ir::Scope::Shared && e.replicated) b_.if_(e.primary, body);
  else body();
  return st;
}

Status KernelGen::gen_store(const ir::Stmt& s) {
  Buf* b = find_buf(s.target().buffer);
  if (!b) return fail(s.loc, "unbound store target");
  std::vector<Value> idx;
  for (const ir::Expr& i : s.target().offsets) {
    TG_ASSIGN_OR_RETURN(Value v, expr_as(i, T::I32));
    idx.push_back(v);
  }
  TG_ASSIGN_OR_RETURN(Value value, expr(s.value()));
  switch (b->scope) {
    case ir::Scope::Global: write_memory(*b, idx, value, fault_site(b->name, s.target().offsets, true)); return Status::ok();
    case ir::Scope::Shared: write_memory(*b, idx, value); return Status::ok();
    case ir::Scope::Local: {
      Value lin = idx[0];
      for (size_t d = 1; d < idx.size(); ++d) lin = b_.add(b_.mul(lin, b_.ci(int32_t(b->shape[d]))), idx[d]);
      store_raw(*b, lin, cv_.round(b->dtype, value));
      return Status::ok();
    }
    case ir::Scope::Fragment: break;
  }
  return fail(s.loc, "store into fragment '" + b->name + "' by index");
}

}  // namespace tegula::vulkan
