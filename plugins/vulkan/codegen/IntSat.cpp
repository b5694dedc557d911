// Integer arithmetic on element values. The IR computes in float64 and saturates when the
// result is stored to an integer dtype (core/DType.h), so a sum, difference, product,
// negation or absolute value of i32 elements past the i32 range must reach the store as
// +-2^31-1 / -2^31, never wrapped.
//
// With Float64 the op runs in f64 on operands that stay f64 through a chain of such ops:
// exactly the reference's arithmetic, and every consumer (a store, a cast, an index) turns
// the f64 into an integer by rounding and saturating as a store does. Without it each op
// saturates on the 32-bit bits (sign tests, and OpSMulExtended for products): exact for one
// op; a chain whose intermediate result overflows saturates there, where the reference
// carries the exact value to the store. Index arithmetic (loop variables, offsets, shape
// symbols) cannot overflow in a kernel whose tensors fit and stays plain i32.
#include "plugins/vulkan/codegen/KernelGen.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace tegula::vulkan {

using namespace spv;

/// Whether an expression's value comes from buffer elements (so may be anywhere in i32).
static bool reads_elements(const ir::Expr& e) {
  if (e->kind == ir::ExprKind::Load || e->kind == ir::ExprKind::Tile) return true;
  for (const ir::Expr& a : e->args)
    if (reads_elements(a)) return true;
  return false;
}

bool KernelGen::saturates(const ir::Expr& e) {
  if (!e->type.is_index() || !reads_elements(e)) return false;
  if (e->kind == ir::ExprKind::Unary) return e->unary == ir::UnaryOp::Neg || e->unary == ir::UnaryOp::Abs;
  if (e->kind != ir::ExprKind::Binary) return false;
  return e->binary == ir::BinaryOp::Add || e->binary == ir::BinaryOp::Sub || e->binary == ir::BinaryOp::Mul;
}

Result<Value> KernelGen::saturating_expr(const ir::Expr& e, const MapCtx* map) {
  T wide = t_.float64 ? T::F64 : T::I32;
  if (wide == T::F64) m_.capability(CapFloat64);
  std::vector<Value> x;
  for (const ir::Expr& a : e->args) {
    TG_ASSIGN_OR_RETURN(Value v, expr_as(a, wide, map));
    x.push_back(v);
  }
  if (e->kind == ir::ExprKind::Unary) {
    if (wide == T::I32) return saturating_unary(e->unary, x[0]);
    return e->unary == ir::UnaryOp::Neg ? b_.neg(x[0]) : b_.glsl(GlslFAbs, T::F64, {x[0]});
  }
  if (wide == T::I32) return saturating_binary(e->binary, x[0], x[1]);
  switch (e->binary) {
    case ir::BinaryOp::Add: return b_.add(x[0], x[1]);
    case ir::BinaryOp::Sub: return b_.sub(x[0], x[1]);
    case ir::BinaryOp::Mul: return b_.mul(x[0], x[1]);
    // saturates() takes + - * only.
    case ir::BinaryOp::Or:
    case ir::BinaryOp::And:
    case ir::BinaryOp::Eq:
    case ir::BinaryOp::Ne:
    case ir::BinaryOp::Lt:
    case ir::BinaryOp::Le:
    case ir::BinaryOp::Gt:
    case ir::BinaryOp::Ge:
    case ir::BinaryOp::Div:
    case ir::BinaryOp::Mod:
    case ir::BinaryOp::Max:
    case ir::BinaryOp::Min:
    case ir::BinaryOp::CeilDiv:
    case ir::BinaryOp::BitAnd:
    case ir::BinaryOp::BitOr:
    case ir::BinaryOp::BitXor:
    case ir::BinaryOp::Shl:
    case ir::BinaryOp::Shr:
    case ir::BinaryOp::ShrLogical: break;
  }
  return fail(e->loc, std::string("saturating arithmetic has no '") + ir::binary_spelling(e->binary) + "'");
}

/// INT32_MIN when `negative`, else INT32_MAX: where an overflow of that sign saturates.
static Value limit(Builder& b, Value negative) {
  return b.select(negative, b.ci(std::numeric_limits<int32_t>::min()), b.ci(std::numeric_limits<int32_t>::max()));
}

Value KernelGen::saturating_unary(ir::UnaryOp op, Value x) {
  // -INT32_MIN and |INT32_MIN| are the only results past the range.
  Value is_min = b_.eq(x, b_.ci(std::numeric_limits<int32_t>::min()));
  Value r = op == ir::UnaryOp::Neg ? b_.neg(x) : b_.glsl(GlslSAbs, T::I32, {x});
  return b_.select(is_min, b_.ci(std::numeric_limits<int32_t>::max()), r);
}

Value KernelGen::saturating_binary(ir::BinaryOp op, Value a, Value b) {
  Value zero = b_.ci(0);
  if (op == ir::BinaryOp::Mul) {
    // The 64-bit product's high word is the low word's sign extension exactly when it fits.
    if (!smul_result_type_) smul_result_type_ = m_.type_struct({m_.type(T::I32), m_.type(T::I32)});
    Value wide = b_.op_type(OpSMulExtended, smul_result_type_, {a.id, b.id});
    Value lo = b_.op(OpCompositeExtract, T::I32, {wide.id, 0});
    Value hi = b_.op(OpCompositeExtract, T::I32, {wide.id, 1});
    Value fits = b_.eq(hi, b_.shr(lo, b_.ci(31)));
    return b_.select(fits, lo, limit(b_, b_.lt(b_.bxor(a, b), zero)));
  }
  // The wrapped sum or difference overflowed when a and b (for a sum) or a and -b (for a
  // difference) share a sign and the result's sign is the other one.
  Value r = op == ir::BinaryOp::Add ? b_.add(a, b) : b_.sub(a, b);
  Value differ = b_.bxor(a, b);
  Value agree = op == ir::BinaryOp::Add ? b_.op(OpNot, T::I32, {differ.id}) : differ;
  Value overflow = b_.lt(b_.band(agree, b_.bxor(a, r)), zero);
  return b_.select(overflow, limit(b_, b_.lt(a, zero)), r);
}

}  // namespace tegula::vulkan
