/// \file
/// Expressions: integers as i64 (floor division and modulo), bit operators on 32-bit words
/// (ir/BitOps.h's rule), floats in their kind, max/min as maximumNumber/minimumNumber,
/// element loads (a global element outside its tensor reads 0, as on CUDA), bare buffer names
/// and idx(a) at the element a tile op is computing.
#include "plugins/hip/codegen/Emitter.h"

namespace tegula::hip {

using llvm::Value;

namespace {

Status unsupported_expr(const ir::Expr& e, const std::string& what) {
  return error(ErrorCode::Unsupported, "the hip backend does not implement " + what + " yet", e->loc);
}

}  // namespace

Result<Val> Emitter::expr_as(const ir::Expr& e, VK k) {
  TG_ASSIGN_OR_RETURN(Val v, expr(e));
  return convert(v, k);
}

static Value* floor_div(llvm::IRBuilder<>& b, Value* x, Value* y) {
  Value* q = b.CreateSDiv(x, y);
  Value* r = b.CreateSRem(x, y);
  Value* adjust = b.CreateAnd(b.CreateICmpNE(r, b.getInt64(0)), b.CreateICmpSLT(b.CreateXor(r, y), b.getInt64(0)));
  return b.CreateSub(q, b.CreateZExt(adjust, b.getInt64Ty()));
}

static Value* floor_mod(llvm::IRBuilder<>& b, Value* x, Value* y) {
  Value* r = b.CreateSRem(x, y);
  Value* adjust = b.CreateAnd(b.CreateICmpNE(r, b.getInt64(0)), b.CreateICmpSLT(b.CreateXor(r, y), b.getInt64(0)));
  return b.CreateSelect(adjust, b.CreateAdd(r, y), r);
}

/// maximumNumber / minimumNumber: a NaN loses to a number, -0 < +0. Equal values (the two
/// zeros included) combine their bits: AND keeps +0 for max, OR keeps -0 for min.
Value* float_max_min(llvm::IRBuilder<>& b, Value* x, Value* y, bool is_max) {
  llvm::Type* ft = x->getType();
  llvm::Type* it = b.getIntNTy(ft->getPrimitiveSizeInBits());
  Value* xb = b.CreateBitCast(x, it);
  Value* yb = b.CreateBitCast(y, it);
  Value* same = b.CreateBitCast(is_max ? b.CreateAnd(xb, yb) : b.CreateOr(xb, yb), ft);
  Value* pick = b.CreateSelect(is_max ? b.CreateFCmpOGT(x, y) : b.CreateFCmpOLT(x, y), x, y);
  Value* r = b.CreateSelect(b.CreateFCmpOEQ(x, y), same, pick);
  r = b.CreateSelect(b.CreateFCmpUNO(y, y), x, r);
  return b.CreateSelect(b.CreateFCmpUNO(x, x), y, r);
}

static Value* word(llvm::IRBuilder<>& b, Value* x) { return b.CreateTrunc(x, b.getInt32Ty()); }

Result<Val> Emitter::expr(const ir::Expr& e) {
  switch (e->kind) {
    case ir::ExprKind::IntImm: return Val{ci(e->int_value), VK::Index};
    case ir::ExprKind::FloatImm: {
      VK k = kind_of(e->type);
      if (k == VK::F64) return Val{llvm::ConstantFP::get(f64, e->float_value), k};
      return Val{llvm::ConstantFP::get(f32, double(float(e->float_value))), VK::F32};
    }
    case ir::ExprKind::Var: return find_var(e->name);
    case ir::ExprKind::ElemIndex: {
      if (!current || !current->elem || size_t(e->int_value) >= current->elem->coords.size())
        return error(ErrorCode::Internal, "hip: idx() outside a map", e->loc);
      return Val{current->elem->coords[size_t(e->int_value)], VK::Index};
    }
    case ir::ExprKind::Load: {
      Buffer* buf = find_buffer(e->name);
      if (!buf) return error(ErrorCode::Internal, "hip: unknown buffer '" + e->name + "'", e->loc);
      if (buf->scope == ir::Scope::Fragment) return unsupported_expr(e, "element loads of a fragment");
      std::vector<Value*> idx;
      for (const ir::Expr& i : e->args) {
        TG_ASSIGN_OR_RETURN(Val v, expr_as(i, VK::Index));
        idx.push_back(v.v);
      }
      if (buf->scope != ir::Scope::Global) {
        TG_ASSIGN_OR_RETURN(Value * addr, address(*buf, idx));
        return load_at(*buf, addr);
      }
      // Outside the tensor an element reads 0 and nothing is loaded.
      Value* inside = in_bounds(*buf, idx);
      TG_ASSIGN_OR_RETURN(Value * addr, address(*buf, idx));
      return masked_load(*buf, addr, inside);
    }
    case ir::ExprKind::Tile: {
      if (!current || !current->elem) return error(ErrorCode::Internal, "hip: a tile name outside a map", e->loc);
      Buffer* named = find_buffer(e->name);
      if (!named) return error(ErrorCode::Internal, "hip: unknown buffer '" + e->name + "'", e->loc);
      if (named->scope == ir::Scope::Global) return unsupported_expr(e, "a global tensor read by name in a map");
      ir::TileRef ref;
      ref.buffer = e->name;
      TG_ASSIGN_OR_RETURN(Access a, operand(ref, *current->elem, *current->extent, *current->plan, true));
      Buffer* buf = find_buffer(e->name);
      return load_at(*buf, a.address);
    }
    case ir::ExprKind::Cast: {
      TG_ASSIGN_OR_RETURN(Val v, expr(e->args[0]));
      TG_ASSIGN_OR_RETURN(Value * raw, encode(e->cast_to, v));
      return decode(e->cast_to, raw);
    }
    case ir::ExprKind::Bitcast: {
      const ir::Expr& arg = e->args[0];
      TG_ASSIGN_OR_RETURN(Val x, expr_as(arg, kind_of(arg->type)));
      return bitcast_value(arg->type.dtype, e->cast_to, x);
    }
    case ir::ExprKind::Select: {
      TG_ASSIGN_OR_RETURN(Val c, expr_as(e->args[0], VK::Bool));
      VK k = kind_of(e->type);
      TG_ASSIGN_OR_RETURN(Val x, expr_as(e->args[1], k));
      TG_ASSIGN_OR_RETURN(Val y, expr_as(e->args[2], k));
      return Val{b.CreateSelect(c.v, x.v, y.v), k};
    }
    case ir::ExprKind::Unary: return unary_expr(e);
    case ir::ExprKind::Binary: return binary_expr(e);
  }
  return error(ErrorCode::Internal, "hip: unknown expression", e->loc);
}

/// x's bits as its dtype `from` (an integer taken modulo 2^(8 size); a float encoded as a
/// store would, a NaN first made its dtype's canonical NaN with x's sign), read back as `to`.
Result<Val> Emitter::bitcast_value(DType from, DType to, Val x) {
  if (dtype_size(from) != dtype_size(to) || x.k == VK::Bool)
    return error(ErrorCode::Internal, std::string("hip: bitcast from ") + dtype_name(from) + " to " + dtype_name(to));
  llvm::Type* bits_type = b.getIntNTy(unsigned(8 * dtype_size(from)));
  Value* bits = nullptr;
  if (x.k == VK::Index) {
    bits = b.CreateTrunc(x.v, bits_type);
  } else {
    Value* v = x.v;
    if (from == DType::F32 || from == DType::TF32 || from == DType::F64) {
      Value* nan = llvm::ConstantFP::getNaN(v->getType());
      v = b.CreateSelect(b.CreateFCmpUNO(v, v), b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, nan, v), v);
    }
    TG_ASSIGN_OR_RETURN(Value * raw, encode(from, Val{v, x.k}));
    bits = b.CreateBitCast(raw, bits_type);
  }
  TG_ASSIGN_OR_RETURN(llvm::Type * st, storage_type(to));
  return decode(to, b.CreateBitCast(bits, st));
}

Result<Val> Emitter::unary_expr(const ir::Expr& e) {
  VK k = kind_of(e->type);
  TG_ASSIGN_OR_RETURN(Val x, expr_as(e->args[0], k));
  using U = ir::UnaryOp;
  if (k == VK::Bool) return Val{b.CreateNot(x.v), k};  // !
  if (k == VK::Index) {
    switch (e->unary) {
      case U::Neg: return Val{b.CreateNeg(x.v), k};
      case U::Abs: return Val{b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x.v, b.CreateNeg(x.v)), k};
      case U::BitNot: return Val{b.CreateSExt(b.CreateNot(word(b, x.v)), i64), k};
      default: return unsupported_expr(e, std::string("the integer function ") + ir::unary_spelling(e->unary));
    }
  }
  llvm::Type* ft = x.v->getType();
  auto one = llvm::ConstantFP::get(ft, 1.0);
  switch (e->unary) {
    case U::Neg: return Val{b.CreateFNeg(x.v), k};
    case U::Abs: return Val{b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x.v), k};
    case U::Sqrt: return Val{b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x.v), k};
    case U::Rsqrt: return Val{b.CreateFDiv(one, b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x.v)), k};
    default: break;
  }
  if (llvm::Value* y = math_function(e->unary, x)) return Val{y, k};
  return unsupported_expr(e, std::string("the function ") + ir::unary_spelling(e->unary));
}

Result<Val> Emitter::binary_expr(const ir::Expr& e) {
  using B = ir::BinaryOp;
  B op = e->binary;
  if (ir::is_logical(op)) {
    TG_ASSIGN_OR_RETURN(Val x, expr_as(e->args[0], VK::Bool));
    TG_ASSIGN_OR_RETURN(Val y, expr_as(e->args[1], VK::Bool));
    return Val{op == B::And ? b.CreateAnd(x.v, y.v) : b.CreateOr(x.v, y.v), VK::Bool};
  }
  VK k = ir::is_comparison(op) ? kind_of(e->args[0]->type) : kind_of(e->type);
  if (ir::is_comparison(op)) {
    // Operands compare in their common kind.
    VK k1 = kind_of(e->args[1]->type);
    if (k1 == VK::F64 || (k1 == VK::F32 && k != VK::F64)) k = k1;
    if (k == VK::Bool) k = VK::Index;
  }
  if (ir::is_bitwise(op)) k = VK::Index;
  TG_ASSIGN_OR_RETURN(Val x, expr_as(e->args[0], k));
  TG_ASSIGN_OR_RETURN(Val y, expr_as(e->args[1], k));
  if (ir::is_comparison(op)) {
    if (k == VK::Index) {
      llvm::CmpInst::Predicate p[] = {llvm::CmpInst::ICMP_EQ,  llvm::CmpInst::ICMP_NE,  llvm::CmpInst::ICMP_SLT,
                                      llvm::CmpInst::ICMP_SLE, llvm::CmpInst::ICMP_SGT, llvm::CmpInst::ICMP_SGE};
      return Val{b.CreateICmp(p[int(op) - int(B::Eq)], x.v, y.v), VK::Bool};
    }
    llvm::CmpInst::Predicate p[] = {llvm::CmpInst::FCMP_OEQ, llvm::CmpInst::FCMP_UNE, llvm::CmpInst::FCMP_OLT,
                                    llvm::CmpInst::FCMP_OLE, llvm::CmpInst::FCMP_OGT, llvm::CmpInst::FCMP_OGE};
    return Val{b.CreateFCmp(p[int(op) - int(B::Eq)], x.v, y.v), VK::Bool};
  }
  if (k == VK::Index) {
    switch (op) {
      case B::Add: return Val{b.CreateAdd(x.v, y.v), k};
      case B::Sub: return Val{b.CreateSub(x.v, y.v), k};
      case B::Mul: return Val{b.CreateMul(x.v, y.v), k};
      case B::Div: return Val{floor_div(b, x.v, y.v), k};
      case B::Mod: return Val{floor_mod(b, x.v, y.v), k};
      case B::Max: return Val{b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x.v, y.v), k};
      case B::Min: return Val{b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x.v, y.v), k};
      case B::CeilDiv: return Val{b.CreateNeg(floor_div(b, b.CreateNeg(x.v), y.v)), k};
      default: break;
    }
    // Bit operators: 32-bit words, shift counts modulo 32, the result an i32.
    Value* xw = word(b, x.v);
    Value* yw = word(b, y.v);
    Value* count = b.CreateAnd(yw, b.getInt32(31));
    Value* r = nullptr;
    switch (op) {
      case B::BitAnd: r = b.CreateAnd(xw, yw); break;
      case B::BitOr: r = b.CreateOr(xw, yw); break;
      case B::BitXor: r = b.CreateXor(xw, yw); break;
      case B::Shl: r = b.CreateShl(xw, count); break;
      case B::Shr: r = b.CreateAShr(xw, count); break;
      case B::ShrLogical: r = b.CreateLShr(xw, count); break;
      default: return unsupported_expr(e, std::string("the integer operator ") + ir::binary_spelling(op));
    }
    return Val{b.CreateSExt(r, i64), k};
  }
  switch (op) {
    case B::Add: return Val{b.CreateFAdd(x.v, y.v), k};
    case B::Sub: return Val{b.CreateFSub(x.v, y.v), k};
    case B::Mul: return Val{b.CreateFMul(x.v, y.v), k};
    case B::Div: return Val{b.CreateFDiv(x.v, y.v), k};
    case B::Max: return Val{float_max_min(b, x.v, y.v, true), k};
    case B::Min: return Val{float_max_min(b, x.v, y.v, false), k};
    default: break;
  }
  return unsupported_expr(e, std::string("the float operator ") + ir::binary_spelling(op));
}

}  // namespace tegula::hip
