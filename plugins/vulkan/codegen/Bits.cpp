// Bit operators and bitcast (ir/OpList.h). Index values are i32 words here already, so the
// operators are SPIR-V's own, with two rules written out: a shift count is masked to its
// low five bits (SPIR-V leaves a count >= 32 undefined), and `>>>` shifts the word as a u32.
// An operand that is element arithmetic (+ - * neg abs) is computed wrapping, not saturating
// (IntSat.cpp): a bit operator reads its operand modulo 2^32, which wrapping i32 arithmetic
// gives exactly, where a saturated value would be wrong.
#include "plugins/vulkan/codegen/KernelGen.h"

#include <cstdint>

namespace tegula::vulkan {

using namespace spv;

Result<Value> KernelGen::word_operand(const ir::Expr& e, const MapCtx* map) {
  bool wraps = e->type.is_index() &&
               ((e->kind == ir::ExprKind::Unary && (e->unary == ir::UnaryOp::Neg || e->unary == ir::UnaryOp::Abs)) ||
                (e->kind == ir::ExprKind::Binary && (e->binary == ir::BinaryOp::Add || e->binary == ir::BinaryOp::Sub ||
                                                     e->binary == ir::BinaryOp::Mul)));
  if (!wraps) return expr_as(e, T::I32, map);
  TG_ASSIGN_OR_RETURN(Value a, word_operand(e->args[0], map));
  if (e->kind == ir::ExprKind::Unary) return e->unary == ir::UnaryOp::Neg ? b_.neg(a) : b_.glsl(GlslSAbs, T::I32, {a});
  TG_ASSIGN_OR_RETURN(Value b, word_operand(e->args[1], map));
  if (e->binary == ir::BinaryOp::Add) return b_.add(a, b);
  return e->binary == ir::BinaryOp::Sub ? b_.sub(a, b) : b_.mul(a, b);
}

Result<Value> KernelGen::bit_not_expr(const ir::Expr& e, const MapCtx* map) {
  TG_ASSIGN_OR_RETURN(Value x, word_operand(e->args[0], map));
  return b_.op(OpNot, T::I32, {x.id});
}

Result<Value> KernelGen::bitwise_expr(const ir::Expr& e, const MapCtx* map) {
  TG_ASSIGN_OR_RETURN(Value a, word_operand(e->args[0], map));
  TG_ASSIGN_OR_RETURN(Value b, word_operand(e->args[1], map));
  Value count = b_.band(b, b_.ci(31));
  switch (e->binary) {
    case ir::BinaryOp::BitAnd: return b_.band(a, b);
    case ir::BinaryOp::BitOr: return b_.bor(a, b);
    case ir::BinaryOp::BitXor: return b_.bxor(a, b);
    case ir::BinaryOp::Shl: return b_.shl(a, count);
    case ir::BinaryOp::Shr: return b_.shr(a, count);  // i32: arithmetic
    case ir::BinaryOp::ShrLogical: return b_.bitcast(b_.shr(b_.bitcast(a, T::U32), count), T::I32);
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
    case ir::BinaryOp::CeilDiv: break;
  }
  return error(ErrorCode::Internal, "vulkan: not a bit operator");
}

/// x's bits (ir/OpList.h: an integer truncated, a float encoded as a store would, a NaN made
/// canonical), read as `to`. Words of up to 32 bits travel as a u32; f64 (only to f64) as
/// its own bits.
Result<Value> KernelGen::bitcast_expr(const ir::Expr& e, const MapCtx* map) {
  const ir::Expr& arg = e->args[0];
  DType from = arg->type.dtype, to = e->cast_to;
  TG_ASSIGN_OR_RETURN(Value x, expr_as(arg, type_of(arg->type), map));
  if (from == DType::F64) {
    m_.capability(CapInt64);
    Value bits = b_.bitcast(x, T::U64);
    Value canon = b_.bor(b_.band(bits, m_.const_u64(0x8000000000000000ull)), m_.const_u64(0x7ff8000000000000ull));
    return b_.bitcast(b_.select(b_.is_nan(x), canon, bits), T::F64);
  }
  Value bits;
  if (arg->type.is_index()) {
    bits = b_.bitcast(x, T::U32);
  } else if (dtype_size(from) == 4) {
    Value raw = b_.bitcast(x, T::U32);
    Value canon = b_.bor(b_.band(raw, b_.cu(0x80000000u)), b_.cu(0x7fc00000u));
    bits = b_.select(b_.is_nan(x), canon, raw);
  } else {
    bits = b_.convert(cv_.encode(from, x), T::U32);  // u16 or u8 storage, zero-extended
  }
  size_t size = dtype_size(to);
  if (size < 4) bits = b_.band(bits, b_.cu(size == 2 ? 0xffffu : 0xffu));
  switch (to) {
    case DType::I32:
    case DType::U8: return b_.bitcast(bits, T::I32);
    case DType::I8: return b_.shr(b_.shl(b_.bitcast(bits, T::I32), b_.ci(24)), b_.ci(24));
    case DType::F32:
    case DType::TF32: return b_.bitcast(bits, T::F32);
    case DType::F16:
    case DType::BF16:
    case DType::E4M3:
    case DType::E5M2:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return cv_.decode(to, bits);
    case DType::F64:
    case DType::Bool: break;
  }
  return error(ErrorCode::Internal, std::string("vulkan: bitcast to ") + dtype_name(to));
}

}  // namespace tegula::vulkan
