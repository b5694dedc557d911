// Expressions: Index arithmetic in i32 (floor division and modulo), float arithmetic in f32,
// or in f64 when an operand is f64 (the verifier's compute dtype), booleans as bool. max and
// min are IEEE 754-2019 maximumNumber/minimumNumber (Builder::max_number). Casts round with the
// exact rules of core/DType.h. exp, exp2, log, tanh, log2, log1p, erf and sigmoid come from
// Math.cpp; bit operators and bitcast from Bits.cpp.
#include "plugins/vulkan/codegen/KernelGen.h"

#include "ir/Analysis.h"
#include "plugins/vulkan/codegen/Math.h"
#include "plugins/vulkan/codegen/Roots.h"

#include <cstdint>

namespace tegula::vulkan {

using namespace spv;

T KernelGen::type_of(const ir::Type& t) {
  if (t.is_index()) return T::I32;
  if (t.is_bool()) return T::Bool;
  return t.dtype == DType::F64 ? T::F64 : T::F32;
}

Value KernelGen::cast_value(Value v, T to) {
  if (v.ty == to) return v;
  if (to == T::Bool || v.ty == T::Bool) return b_.convert(v, to);
  if (is_float(to)) return b_.convert(v, to);
  // A float in an integer context (never produced by verified IR, but keep it defined).
  return cv_.float_to_int(v, -2147483648.0, 2147483647.0);
}

Result<Value> KernelGen::var_value(const std::string& name) {
  for (auto it = var_scopes_.rbegin(); it != var_scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f == it->end()) continue;
    if (f->second.ptr) return b_.load(f->second.ptr, f->second.ty);
    return f->second.value;
  }
  return error(ErrorCode::Internal, "vulkan: unbound name '" + name + "'");
}

Result<Value> KernelGen::expr_as(const ir::Expr& e, T to, const MapCtx* map) {
  TG_ASSIGN_OR_RETURN(Value v, expr(e, map));
  return cast_value(v, to);
}

Result<std::vector<Value>> KernelGen::tile_origin(const ir::TileRef& t) {
  std::vector<Value> origin;
  for (const ir::Expr& o : t.offsets) {
    TG_ASSIGN_OR_RETURN(Value v, expr_as(o, T::I32));
    origin.push_back(v);
  }
  return origin;
}

Result<Value> KernelGen::expr(const ir::Expr& e, const MapCtx* map) {
  switch (e->kind) {
    case ir::ExprKind::IntImm: return b_.ci(int32_t(e->int_value));
    case ir::ExprKind::FloatImm: return b_.c(type_of(e->type) == T::F64 ? T::F64 : T::F32, e->float_value);
    case ir::ExprKind::Var: return var_value(e->name);
    case ir::ExprKind::Load: return load_expr(e, map);
    case ir::ExprKind::Tile: return tile_expr(e, map);
    case ir::ExprKind::ElemIndex: {
      // The element's coordinate from the map's layout: a per-invocation base plus this
      // slot's constant (for_slots), never a division of a linear index.
      if (!map || !map->element_coords || size_t(e->int_value) >= map->coords.size())
        return error(ErrorCode::Internal,
                     "vulkan: idx(" + std::to_string(e->int_value) + ") outside an element-wise map", e->loc);
      return map->coords[size_t(e->int_value)];
    }
    case ir::ExprKind::Cast: {
      TG_ASSIGN_OR_RETURN(Value x, expr(e->args[0], map));
      return cv_.round(e->cast_to, x);
    }
    case ir::ExprKind::Bitcast: return bitcast_expr(e, map);
    case ir::ExprKind::Select: {
      TG_ASSIGN_OR_RETURN(Value c, expr_as(e->args[0], T::Bool, map));
      T ty = type_of(e->type);
      if (reads_tensor(e->args[1]) || reads_tensor(e->args[2])) return lazy_select(c, e->args[1], e->args[2], ty, map);
      TG_ASSIGN_OR_RETURN(Value a, expr_as(e->args[1], ty, map));
      TG_ASSIGN_OR_RETURN(Value b, expr_as(e->args[2], ty, map));
      return b_.select(c, a, b);
    }
    case ir::ExprKind::Unary: return unary_expr(e, map);
    case ir::ExprKind::Binary: return binary_expr(e, map);
  }
  return error(ErrorCode::Internal, "vulkan: unknown expression");
}

Result<Value> KernelGen::unary_expr(const ir::Expr& e, const MapCtx* map) {
  if (saturates(e)) return saturating_expr(e, map);
  if (e->unary == ir::UnaryOp::BitNot) return bit_not_expr(e, map);
  T ty = type_of(e->type);
  if (e->unary == ir::UnaryOp::Not) {
    TG_ASSIGN_OR_RETURN(Value x, expr_as(e->args[0], T::Bool, map));
    return b_.lnot(x);
  }
  TG_ASSIGN_OR_RETURN(Value x, expr_as(e->args[0], ty, map));
  switch (e->unary) {
    case ir::UnaryOp::Neg: return b_.neg(x);
    case ir::UnaryOp::Not: return b_.lnot(x);
    case ir::UnaryOp::Abs: return b_.glsl(ty == T::I32 ? GlslSAbs : GlslFAbs, ty, {x});
    // Not GLSL.std.450's Exp/Exp2/Log/Tanh: no f64, loose precision, flushed subnormals (Math.h).
    case ir::UnaryOp::Exp: return math_exp(b_, x);
    case ir::UnaryOp::Exp2: return math_exp2(b_, x);
    case ir::UnaryOp::Log: return math_log(b_, x);
    case ir::UnaryOp::Tanh: return math_tanh(b_, x);
    case ir::UnaryOp::Sqrt: return math_sqrt(b_, x);
    case ir::UnaryOp::Rsqrt: return math_rsqrt(b_, x);
    case ir::UnaryOp::Log2: return math_log2(b_, x);
    case ir::UnaryOp::Log1p: return math_log1p(b_, x);
    case ir::UnaryOp::Erf: return math_erf(b_, x);
    case ir::UnaryOp::Sigmoid: return math_sigmoid(b_, x);
    case ir::UnaryOp::BitNot: break;  // bit_not_expr, above
  }
  return error(ErrorCode::Internal, "vulkan: unknown unary op");
}

Result<Value> KernelGen::binary_expr(const ir::Expr& e, const MapCtx* map) {
  if (saturates(e)) return saturating_expr(e, map);
  ir::BinaryOp op = e->binary;
  if (ir::is_bitwise(op)) return bitwise_expr(e, map);
  if (ir::is_logical(op)) {
    TG_ASSIGN_OR_RETURN(Value a, expr_as(e->args[0], T::Bool, map));
    // `i < N && X[i] > 0`: X[i] is read only where i < N, as the interpreter reads it.
    if (reads_tensor(e->args[1])) {
      uint32_t out = b_.var(T::Bool, a);  // what a alone decides: false for &&, true for ||
      Status st;
      b_.if_(op == ir::BinaryOp::And ? a : b_.lnot(a), [&] {
        auto v = expr_as(e->args[1], T::Bool, map);
        if (v.is_ok()) b_.store(out, *v);
        else st = v.status();
      });
      TG_RETURN_IF_ERROR(st);
      return b_.load(out, T::Bool);
    }
    TG_ASSIGN_OR_RETURN(Value b, expr_as(e->args[1], T::Bool, map));
    return op == ir::BinaryOp::And ? b_.land(a, b) : b_.lor(a, b);
  }
  const ir::Type &ta = e->args[0]->type, &tb = e->args[1]->type;
  T ct;
  if (ir::is_comparison(op)) {
    bool f64 = (ta.is_float() && ta.dtype == DType::F64) || (tb.is_float() && tb.dtype == DType::F64);
    ct = (ta.is_index() && tb.is_index()) ? T::I32 : (f64 ? T::F64 : T::F32);
  } else {
    ct = type_of(e->type);
  }
  TG_ASSIGN_OR_RETURN(Value a, expr_as(e->args[0], ct, map));
  TG_ASSIGN_OR_RETURN(Value b, expr_as(e->args[1], ct, map));
  bool ints = ct == T::I32;
  switch (op) {
    case ir::BinaryOp::Add: return b_.add(a, b);
    case ir::BinaryOp::Sub: return b_.sub(a, b);
    case ir::BinaryOp::Mul: return b_.mul(a, b);
    case ir::BinaryOp::Div: return ints ? b_.floor_div(a, b) : math_div(b_, a, b, t_.float64);
    case ir::BinaryOp::Mod: return b_.floor_mod(a, b);
    case ir::BinaryOp::CeilDiv: return b_.neg(b_.floor_div(b_.neg(a), b));
    case ir::BinaryOp::Max: return ints ? b_.smax(a, b) : b_.max_number(a, b);
    case ir::BinaryOp::Min: return ints ? b_.smin(a, b) : b_.min_number(a, b);
    case ir::BinaryOp::Lt: return b_.lt(a, b);
    case ir::BinaryOp::Le: return b_.le(a, b);
    case ir::BinaryOp::Gt: return b_.gt(a, b);
    case ir::BinaryOp::Ge: return b_.ge(a, b);
    case ir::BinaryOp::Eq: return b_.eq(a, b);
    case ir::BinaryOp::Ne: return b_.ne(a, b);
    case ir::BinaryOp::And:
    case ir::BinaryOp::Or:
    case ir::BinaryOp::BitAnd:  // bitwise_expr, above
    case ir::BinaryOp::BitOr:
    case ir::BinaryOp::BitXor:
    case ir::BinaryOp::Shl:
    case ir::BinaryOp::Shr:
    case ir::BinaryOp::ShrLogical: break;
  }
  return error(ErrorCode::Internal, "vulkan: unknown binary op");
}

Result<Value> KernelGen::load_expr(const ir::Expr& e, const MapCtx* map) {
  Buf* b = find_buf(e->name);
  if (!b) return error(ErrorCode::Internal, "vulkan: unbound buffer '" + e->name + "'");
  std::vector<Value> idx;
  for (const ir::Expr& i : e->args) {
    TG_ASSIGN_OR_RETURN(Value v, expr_as(i, T::I32, map));
    idx.push_back(v);
  }
  switch (b->scope) {
    case ir::Scope::Global: return read_memory(*b, idx, 0.0, fault_site(e->name, e->args, false));
    case ir::Scope::Shared: return read_memory(*b, idx, 0.0);
    case ir::Scope::Local: {
      Value lin = idx[0];
      for (size_t d = 1; d < idx.size(); ++d) lin = b_.add(b_.mul(lin, b_.ci(int32_t(b->shape[d]))), idx[d]);
      return load_raw(*b, lin);
    }
    case ir::Scope::Fragment: break;
  }
  // Lowering makes parallel loops read a shared copy of a fragment (stage_fragment_reads),
  // and read_lowered refuses a fragment read by index.
  return error(ErrorCode::Internal, "vulkan: fragment '" + e->name + "' read by index", e->loc);
}

Result<Value> KernelGen::tile_expr(const ir::Expr& e, const MapCtx* map) {
  Buf* b = find_buf(e->name);
  if (!b || !map) return error(ErrorCode::Internal, "vulkan: bare buffer '" + e->name + "' outside a map");
  if (b->opaque) {
    auto it = map->opaque_value.find(e->name);
    if (it == map->opaque_value.end()) return fail(e->loc, "opaque fragment '" + e->name + "' read by another fragment's map");
    return it->second;
  }
  if (b->scope == ir::Scope::Fragment) {
    auto it = map->slot_of.find(e->name);
    if (it == map->slot_of.end() || it->second < 0) return error(ErrorCode::Internal, "vulkan: no slot of '" + e->name + "'");
    return read_slot(*b, it->second);
  }
  if (b->scope != ir::Scope::Shared) return fail(e->loc, std::string("a ") + ir::scope_name(b->scope) + " buffer as a map operand");
  // Shapes align at the trailing axes: a lower-rank operand broadcasts along the leading ones.
  size_t lead = map->coords.size() - b->shape.size();
  std::vector<Value> c;
  for (size_t d = 0; d < b->shape.size(); ++d) c.push_back(b->shape[d] == 1 ? b_.ci(0) : map->coords[d + lead]);
  return read_memory(*b, c, 0.0);
}

bool KernelGen::reads_tensor(const ir::Expr& e) {
  return ir::any_node(e, [&](const ir::Expr& x) {
    if (x->kind != ir::ExprKind::Load) return false;
    Buf* b = find_buf(x->name);
    return b && b->scope == ir::Scope::Global;
  });
}

Result<Value> KernelGen::lazy_select(Value cond, const ir::Expr& a, const ir::Expr& b, T ty, const MapCtx* map) {
  uint32_t out = b_.var(ty);
  Status st;
  auto arm = [&](const ir::Expr& x) {
    return [&, x] {
      auto v = expr_as(x, ty, map);
      if (!v.is_ok()) {
        st = v.status();
        return;
      }
      b_.store(out, *v);
    };
  };
  b_.if_(cond, arm(a), arm(b));
  TG_RETURN_IF_ERROR(st);
  return b_.load(out, ty);
}

}  // namespace tegula::vulkan
