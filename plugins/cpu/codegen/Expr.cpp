/// \file
/// Expressions and the element store. Integers (Index) are i64 with floor division and
/// floor modulo; floats compute in the verifier's compute dtype (f32, or f64 when an operand
/// is f64); comparisons mixing an integer and a float compare in f64, as the float64
/// reference does. Element loads and stores check their indices: an index outside the
/// buffer is skipped (a load reads 0) and reported as a runtime error, never a crash.
#include "llvm/IR/Intrinsics.h"
#include "plugins/cpu/codegen/Emitter.h"

namespace tegula::cpu {
namespace {

bool is_float(VK k) { return k == VK::F32 || k == VK::F64; }

}  // namespace

Result<llvm::Value*> Emitter::index_expr(const ir::Expr& e) {
  TG_ASSIGN_OR_RETURN(Val v, expr_as(e, VK::Index));
  return v.v;
}

Result<Val> Emitter::expr_as(const ir::Expr& e, VK k) {
  // Literals take the exact value in the wanted kind (an f64 context sees 0.1, not 0.1f).
  if (e->kind == ir::ExprKind::FloatImm && is_float(k)) return Val{llvm::ConstantFP::get(kind_type(k), e->float_value), k};
  if (e->kind == ir::ExprKind::IntImm && is_float(k))
    return Val{llvm::ConstantFP::get(kind_type(k), double(e->int_value)), k};
  TG_ASSIGN_OR_RETURN(Val v, expr(e));
  return convert(v, k);
}

/// Floor division and modulo of i64 values; a zero divisor gives 0 and a runtime error.
static std::pair<llvm::Value*, llvm::Value*> floor_divmod(Emitter& e, llvm::Value* x, llvm::Value* d) {
  llvm::IRBuilder<>& b = e.b;
  llvm::Value* zero = b.CreateICmpEQ(d, e.ci(0));
  e.flag_error(zero, kRuntimeDivisionByZero);
  // -1 would trap on INT64_MIN / -1: divide by 1 and negate instead.
  llvm::Value* minus_one = b.CreateICmpEQ(d, e.ci(-1));
  llvm::Value* safe = b.CreateSelect(b.CreateOr(zero, minus_one), e.ci(1), d);
  llvm::Value* q = b.CreateSDiv(x, safe);
  llvm::Value* r = b.CreateSRem(x, safe);
  // Round toward minus infinity: adjust when the remainder and divisor differ in sign.
  llvm::Value* adjust = b.CreateAnd(b.CreateICmpNE(r, e.ci(0)), b.CreateICmpSLT(b.CreateXor(r, safe), e.ci(0)));
  q = b.CreateSelect(adjust, b.CreateSub(q, e.ci(1)), q);
  r = b.CreateSelect(adjust, b.CreateAdd(r, safe), r);
  q = b.CreateSelect(minus_one, b.CreateNeg(x), q);
  r = b.CreateSelect(minus_one, e.ci(0), r);
  q = b.CreateSelect(zero, e.ci(0), q);
  r = b.CreateSelect(zero, e.ci(0), r);
  return {q, r};
}

/// A bit operator on 32-bit words (ir/OpList.h, ir/BitOps.h): the i64 operands truncated to
/// i32, shift counts masked to their low five bits (so no LLVM shift is poison), the result
/// sign-extended back to an Index.
static Result<Val> bitwise(Emitter& em, const ir::Expr& e) {
  llvm::IRBuilder<>& b = em.b;
  TG_ASSIGN_OR_RETURN(llvm::Value* x64, em.index_expr(e->args[0]));
  TG_ASSIGN_OR_RETURN(llvm::Value* y64, em.index_expr(e->args[1]));
  llvm::Value* x = b.CreateTrunc(x64, em.i32);
  llvm::Value* y = b.CreateTrunc(y64, em.i32);
  llvm::Value* count = b.CreateAnd(y, llvm::ConstantInt::get(em.i32, 31));
  llvm::Value* r = nullptr;
  switch (e->binary) {
    case ir::BinaryOp::BitAnd: r = b.CreateAnd(x, y); break;
    case ir::BinaryOp::BitOr: r = b.CreateOr(x, y); break;
    case ir::BinaryOp::BitXor: r = b.CreateXor(x, y); break;
    case ir::BinaryOp::Shl: r = b.CreateShl(x, count); break;
    case ir::BinaryOp::Shr: r = b.CreateAShr(x, count); break;
    case ir::BinaryOp::ShrLogical: r = b.CreateLShr(x, count); break;
    case ir::BinaryOp::Or:
    case ir::BinaryOp::And:
    case ir::BinaryOp::Eq:
    case ir::BinaryOp::Ne:
    case ir::BinaryOp::Lt:
    case ir::BinaryOp::Le:
    case ir::BinaryOp::Gt:
    case ir::BinaryOp::Ge:
    case ir::BinaryOp::Add:
    case ir::BinaryOp::Sub:
    case ir::BinaryOp::Mul:
    case ir::BinaryOp::Div:
    case ir::BinaryOp::Mod:
    case ir::BinaryOp::Max:
    case ir::BinaryOp::Min:
    case ir::BinaryOp::CeilDiv: return error(ErrorCode::Internal, "not a bit operator", e->loc);
  }
  return Val{b.CreateSExt(r, em.i64), VK::Index};
}

static Result<Val> binary(Emitter& em, const ir::Expr& e) {
  llvm::IRBuilder<>& b = em.b;
  ir::BinaryOp op = e->binary;
  const ir::Expr& lhs = e->args[0];
  const ir::Expr& rhs = e->args[1];
  if (ir::is_logical(op)) {
    TG_ASSIGN_OR_RETURN(Val x, em.expr_as(lhs, VK::Bool));
    TG_ASSIGN_OR_RETURN(Val y, em.expr_as(rhs, VK::Bool));
    return Val{op == ir::BinaryOp::And ? b.CreateAnd(x.v, y.v) : b.CreateOr(x.v, y.v), VK::Bool};
  }
  if (ir::is_bitwise(op)) return bitwise(em, e);
  bool ints = lhs->type.is_index() && rhs->type.is_index();
  if (ir::is_comparison(op)) {
    VK k = VK::Index;
    if (!ints) {
      bool wide = kind_of(lhs->type) == VK::F64 || kind_of(rhs->type) == VK::F64 || lhs->type.is_index() ||
                  rhs->type.is_index();
      k = wide ? VK::F64 : VK::F32;
    }
    TG_ASSIGN_OR_RETURN(Val x, em.expr_as(lhs, k));
    TG_ASSIGN_OR_RETURN(Val y, em.expr_as(rhs, k));
    using P = llvm::CmpInst::Predicate;
    P p = P::ICMP_EQ;
    switch (op) {
      case ir::BinaryOp::Eq: p = ints ? P::ICMP_EQ : P::FCMP_OEQ; break;
      case ir::BinaryOp::Ne: p = ints ? P::ICMP_NE : P::FCMP_UNE; break;
      case ir::BinaryOp::Lt: p = ints ? P::ICMP_SLT : P::FCMP_OLT; break;
      case ir::BinaryOp::Le: p = ints ? P::ICMP_SLE : P::FCMP_OLE; break;
      case ir::BinaryOp::Gt: p = ints ? P::ICMP_SGT : P::FCMP_OGT; break;
      case ir::BinaryOp::Ge: p = ints ? P::ICMP_SGE : P::FCMP_OGE; break;
      case ir::BinaryOp::Or:
      case ir::BinaryOp::And:
      case ir::BinaryOp::Add:
      case ir::BinaryOp::Sub:
      case ir::BinaryOp::Mul:
      case ir::BinaryOp::Div:
      case ir::BinaryOp::Mod:
      case ir::BinaryOp::Max:
      case ir::BinaryOp::Min:
      case ir::BinaryOp::BitAnd:
      case ir::BinaryOp::BitOr:
      case ir::BinaryOp::BitXor:
      case ir::BinaryOp::Shl:
      case ir::BinaryOp::Shr:
      case ir::BinaryOp::ShrLogical:
      case ir::BinaryOp::CeilDiv: return error(ErrorCode::Internal, "unexpected comparison operator", e->loc);
    }
    return Val{ints ? b.CreateICmp(p, x.v, y.v) : b.CreateFCmp(p, x.v, y.v), VK::Bool};
  }
  VK k = ints ? VK::Index : kind_of(e->type);
  TG_ASSIGN_OR_RETURN(Val x, em.expr_as(lhs, k));
  TG_ASSIGN_OR_RETURN(Val y, em.expr_as(rhs, k));
  if (ints) {
    switch (op) {
      case ir::BinaryOp::Add: return Val{b.CreateAdd(x.v, y.v), k};
      case ir::BinaryOp::Sub: return Val{b.CreateSub(x.v, y.v), k};
      case ir::BinaryOp::Mul: return Val{b.CreateMul(x.v, y.v), k};
      case ir::BinaryOp::Max: return Val{b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x.v, y.v), k};
      case ir::BinaryOp::Min: return Val{b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x.v, y.v), k};
      case ir::BinaryOp::Div: return Val{floor_divmod(em, x.v, y.v).first, k};
      case ir::BinaryOp::Mod: return Val{floor_divmod(em, x.v, y.v).second, k};
      case ir::BinaryOp::CeilDiv: {
        // ceildiv(x, d) = -floor(-x / d)
        llvm::Value* q = floor_divmod(em, b.CreateNeg(x.v), y.v).first;
        return Val{b.CreateNeg(q), k};
      }
      // Logic and comparisons are emitted above.
      case ir::BinaryOp::Or:
      case ir::BinaryOp::And:
      case ir::BinaryOp::Eq:
      case ir::BinaryOp::Ne:
      case ir::BinaryOp::Lt:
      case ir::BinaryOp::Le:
      case ir::BinaryOp::Gt:
      case ir::BinaryOp::Ge:
      case ir::BinaryOp::BitAnd:
      case ir::BinaryOp::BitOr:
      case ir::BinaryOp::BitXor:
      case ir::BinaryOp::Shl:
      case ir::BinaryOp::Shr:
      case ir::BinaryOp::ShrLogical:
        break;
    }
    return error(ErrorCode::Internal, "unexpected integer operator", e->loc);
  }
  switch (op) {
    case ir::BinaryOp::Add: return Val{b.CreateFAdd(x.v, y.v), k};
    case ir::BinaryOp::Sub: return Val{b.CreateFSub(x.v, y.v), k};
    case ir::BinaryOp::Mul: return Val{b.CreateFMul(x.v, y.v), k};
    case ir::BinaryOp::Div: return Val{b.CreateFDiv(x.v, y.v), k};
    case ir::BinaryOp::Max: return Val{em.max_number(x.v, y.v), k};
    case ir::BinaryOp::Min: return Val{em.min_number(x.v, y.v), k};
    // Integer-only operators (the verifier refuses them on floats); logic and comparisons
    // are emitted above.
    case ir::BinaryOp::Mod:
    case ir::BinaryOp::CeilDiv:
    case ir::BinaryOp::Or:
    case ir::BinaryOp::And:
    case ir::BinaryOp::Eq:
    case ir::BinaryOp::Ne:
    case ir::BinaryOp::Lt:
    case ir::BinaryOp::Le:
    case ir::BinaryOp::Gt:
    case ir::BinaryOp::Ge:
    case ir::BinaryOp::BitAnd:
    case ir::BinaryOp::BitOr:
    case ir::BinaryOp::BitXor:
    case ir::BinaryOp::Shl:
    case ir::BinaryOp::Shr:
    case ir::BinaryOp::ShrLogical:
      break;
  }
  return error(ErrorCode::Internal, std::string("operator '") + ir::binary_spelling(op) + "' on floats", e->loc);
}

static Result<Val> unary(Emitter& em, const ir::Expr& e) {
  llvm::IRBuilder<>& b = em.b;
  ir::UnaryOp op = e->unary;
  if (op == ir::UnaryOp::Not) {
    TG_ASSIGN_OR_RETURN(Val x, em.expr_as(e->args[0], VK::Bool));
    return Val{b.CreateNot(x.v), VK::Bool};
  }
  VK k = kind_of(e->type);
  TG_ASSIGN_OR_RETURN(Val x, em.expr_as(e->args[0], k));
  if (k == VK::Index) {
    if (op == ir::UnaryOp::Neg) return Val{b.CreateNeg(x.v), k};
    // ~ on the 32-bit word (ir/OpList.h), sign-extended back.
    if (op == ir::UnaryOp::BitNot) return Val{b.CreateSExt(b.CreateNot(b.CreateTrunc(x.v, em.i32)), em.i64), k};
    return Val{b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, x.v, b.getFalse()), k};
  }
  switch (op) {
    case ir::UnaryOp::Neg: return Val{b.CreateFNeg(x.v), k};
    case ir::UnaryOp::Abs: return Val{b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x.v), k};
    case ir::UnaryOp::Exp: return Val{em.exp(x.v), k};
    case ir::UnaryOp::Exp2: return Val{em.exp2(x.v), k};
    case ir::UnaryOp::Log: return Val{em.log(x.v), k};
    case ir::UnaryOp::Sqrt: return Val{b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x.v), k};
    case ir::UnaryOp::Rsqrt:
      return Val{b.CreateFDiv(llvm::ConstantFP::get(x.v->getType(), 1.0),
                              b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x.v)),
                 k};
    case ir::UnaryOp::Tanh: return Val{em.tanh(x.v), k};
    case ir::UnaryOp::Log2: return Val{em.log2(x.v), k};
    case ir::UnaryOp::Log1p: return Val{em.log1p(x.v), k};
    case ir::UnaryOp::Erf: return Val{em.erf(x.v), k};
    case ir::UnaryOp::Sigmoid: return Val{em.sigmoid(x.v), k};
    case ir::UnaryOp::Not:
    case ir::UnaryOp::BitNot: break;
  }
  return error(ErrorCode::Internal, "unexpected unary operator", e->loc);
}

/// An element load with bounds checks: outside the buffer it reads 0 and flags an error.
static Result<Val> element_load(Emitter& em, const ir::Expr& e) {
  Buffer* buf = em.find_buffer(e->name);
  if (!buf) return error(ErrorCode::Internal, "unbound buffer '" + e->name + "'", e->loc);
  std::vector<llvm::Value*> coords;
  for (const ir::Expr& i : e->args) {
    TG_ASSIGN_OR_RETURN(llvm::Value* v, em.index_expr(i));
    coords.push_back(v);
  }
  llvm::IRBuilder<>& b = em.b;
  llvm::Value* ok = em.in_bounds(*buf, coords);
  em.flag_error(b.CreateNot(ok), kRuntimeIndexOutOfRange);
  llvm::Value* linear = em.linear_index(*buf, coords);
  llvm::Type* st = em.storage_type(buf->dtype);
  llvm::Value* result = nullptr;
  TG_RETURN_IF_ERROR(em.if_then(ok, [&]() -> Status {
    result = em.load_raw(*buf, linear);
    return Status::ok();
  }));
  // The join block merges the loaded value with 0 from the skipped path.
  llvm::BasicBlock* join = b.GetInsertBlock();
  llvm::PHINode* phi = b.CreatePHI(st, 2);
  for (llvm::BasicBlock* pred : llvm::predecessors(join))
    phi->addIncoming(llvm::cast<llvm::Instruction>(result)->getParent() == pred ? result : llvm::Constant::getNullValue(st),
                     pred);
  return em.decode(buf->dtype, phi);
}

/// bitcast<to>(x) (ir/OpList.h): x's bits as its dtype `from` (an integer truncated, a float
/// encoded as a store would, with a NaN made canonical), read back as `to`.
static Result<Val> bitcast(Emitter& em, const ir::Expr& e) {
  llvm::IRBuilder<>& b = em.b;
  const ir::Expr& arg = e->args[0];
  DType from = arg->type.dtype, to = e->cast_to;
  llvm::Type* bits_type = b.getIntNTy(unsigned(8 * dtype_size(from)));
  TG_ASSIGN_OR_RETURN(Val x, em.expr_as(arg, kind_of(arg->type)));
  llvm::Value* bits = nullptr;
  if (x.k == VK::Index) {
    bits = b.CreateTrunc(x.v, bits_type);
  } else {
    llvm::Value* v = x.v;
    if (from == DType::F32 || from == DType::TF32 || from == DType::F64) {
      llvm::Value* nan = llvm::ConstantFP::getNaN(v->getType());
      v = b.CreateSelect(b.CreateFCmpUNO(v, v), b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, nan, v), v);
    }
    llvm::Value* raw = em.encode(from, Val{v, x.k});
    bits = b.CreateBitCast(raw, bits_type);
  }
  return em.decode(to, b.CreateBitCast(bits, em.storage_type(to)));
}

/// A bare buffer name in a map: the element at the map's index, broadcasting size-1 dims
/// and, shapes aligned at the trailing axes, the leading axes a lower-rank buffer lacks.
static Result<Val> tile_use(Emitter& em, const ir::Expr& e) {
  Buffer* buf = em.find_buffer(e->name);
  const Emitter::MapIndex* m = em.map_index;
  if (!buf || !m) return error(ErrorCode::Internal, "buffer '" + e->name + "' used whole outside a map", e->loc);
  if (m->flat) return em.load(*buf, m->flat);
  size_t lead = m->coords.size() - size_t(buf->rank());
  std::vector<llvm::Value*> coords;
  for (int d = 0; d < buf->rank(); ++d)
    coords.push_back(buf->shape[size_t(d)] == 1 ? em.ci(0) : m->coords[size_t(d) + lead]);
  return em.load(*buf, em.linear_index(*buf, coords));
}

/// idx(a) in a map: the loop variable of axis a of the map's loop nest (emit_map takes the
/// nest, not the flat loop, for every map that reads an element index).
static Result<Val> elem_index(Emitter& em, const ir::Expr& e) {
  const Emitter::MapIndex* m = em.map_index;
  if (!m || m->flat || size_t(e->int_value) >= m->coords.size())
    return error(ErrorCode::Internal,
                 "cpu codegen: idx(" + std::to_string(e->int_value) + ") outside a map's loop nest", e->loc);
  return Val{m->coords[size_t(e->int_value)], VK::Index};
}

Result<llvm::Value*> Emitter::stored_bits(const ir::Expr& e, DType d) {
  if (e->kind == ir::ExprKind::FloatImm) return encoded_constant(d, e->float_value);
  if (e->kind == ir::ExprKind::IntImm) return encoded_constant(d, double(e->int_value));
  TG_ASSIGN_OR_RETURN(Val v, expr(e));
  return encode(d, v);
}

Result<Val> Emitter::expr(const ir::Expr& e) {
  switch (e->kind) {
    case ir::ExprKind::IntImm: return Val{ci(e->int_value), VK::Index};
    case ir::ExprKind::FloatImm: return Val{llvm::ConstantFP::get(f32, e->float_value), VK::F32};
    case ir::ExprKind::Var: return find_var(e->name);
    case ir::ExprKind::Load: return element_load(*this, e);
    case ir::ExprKind::Tile: return tile_use(*this, e);
    case ir::ExprKind::ElemIndex: return elem_index(*this, e);
    case ir::ExprKind::Unary: return unary(*this, e);
    case ir::ExprKind::Binary: return binary(*this, e);
    case ir::ExprKind::Cast: {
      TG_ASSIGN_OR_RETURN(Val x, expr(e->args[0]));
      // A literal cast to f64 keeps its exact value.
      if (e->args[0]->kind == ir::ExprKind::FloatImm && e->cast_to == DType::F64)
        return Val{llvm::ConstantFP::get(f64, e->args[0]->float_value), VK::F64};
      if (e->args[0]->kind == ir::ExprKind::FloatImm)
        x = Val{llvm::ConstantFP::get(f64, e->args[0]->float_value), VK::F64};
      return round_to(e->cast_to, x);
    }
    case ir::ExprKind::Bitcast: return bitcast(*this, e);
    case ir::ExprKind::Select: {
      TG_ASSIGN_OR_RETURN(Val c, expr_as(e->args[0], VK::Bool));
      VK k = kind_of(e->type);
      TG_ASSIGN_OR_RETURN(Val x, expr_as(e->args[1], k));
      TG_ASSIGN_OR_RETURN(Val y, expr_as(e->args[2], k));
      return Val{b.CreateSelect(c.v, x.v, y.v), k};
    }
  }
  return error(ErrorCode::Internal, "unknown expression", e->loc);
}

Status Emitter::emit_store(const ir::Stmt& s) {
  const ir::TileRef& t = s.target();
  Buffer* buf = find_buffer(t.buffer);
  if (!buf) return error(ErrorCode::Internal, "unbound store target '" + t.buffer + "'", s.loc);
  TG_ASSIGN_OR_RETURN(llvm::Value* raw, stored_bits(s.value(), buf->dtype));
  std::vector<llvm::Value*> coords;
  for (const ir::Expr& i : t.offsets) {
    TG_ASSIGN_OR_RETURN(llvm::Value* c, index_expr(i));
    coords.push_back(c);
  }
  llvm::Value* ok = in_bounds(*buf, coords);
  flag_error(b.CreateNot(ok), kRuntimeIndexOutOfRange);
  llvm::Value* linear = linear_index(*buf, coords);
  return if_then(ok, [&]() -> Status {
    store_raw(*buf, linear, raw);
    return Status::ok();
  });
}

}  // namespace tegula::cpu
