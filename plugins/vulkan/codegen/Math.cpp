// exp, exp2, log, tanh, log2, log1p, erf and sigmoid in plain SPIR-V arithmetic (why:
// Math.h): the SDK's recipes (plugins/support/MathRecipes.h) over this builder, each float
// result marked NoContraction.
#include "plugins/vulkan/codegen/Math.h"

#include <cstdint>

#include "plugins/support/MathRecipes.h"

namespace tegula::vulkan {

using namespace spv;

namespace {

/// One float format's arithmetic for the recipes. Every float result is marked
/// NoContraction: Cody-Waite reduction and fdlibm's evaluation order rely on each operation
/// being rounded on its own, so drivers must neither fuse nor reassociate them.
struct SpirvOps {
  using Value = spv::Value;
  Builder& b;
  T f;   ///< F32 or F64
  T ut;  ///< the unsigned integer of the same width
  bool f64;

  SpirvOps(Builder& b, T f) : b(b), f(f), ut(f == T::F64 ? T::U64 : T::U32), f64(f == T::F64) {
    if (!f64) return;
    b.m.capability(CapFloat64);
    b.m.capability(CapInt64);
  }

  Value exact(Value v) {
    b.m.decorate(v.id, DecNoContraction);
    return v;
  }
  Value c(double v) { return b.c(f, v); }
  Value add(Value x, Value y) { return exact(b.add(x, y)); }
  Value sub(Value x, Value y) { return exact(b.sub(x, y)); }
  Value mul(Value x, Value y) { return exact(b.mul(x, y)); }
  Value div(Value x, Value y) { return exact(b.fdiv(x, y)); }
  Value neg(Value x) { return b.neg(x); }
  Value fabs(Value x) { return b.glsl(GlslFAbs, f, {x}); }
  Value roundeven(Value x) { return b.glsl(GlslRoundEven, f, {x}); }
  Value lt(Value x, Value y) { return b.lt(x, y); }
  Value gt(Value x, Value y) { return b.gt(x, y); }
  Value ge(Value x, Value y) { return b.ge(x, y); }
  Value eq(Value x, Value y) { return b.eq(x, y); }
  Value is_nan(Value x) { return b.is_nan(x); }
  Value lor(Value x, Value y) { return b.lor(x, y); }
  Value select(Value cond, Value x, Value y) { return b.select(cond, x, y); }
  Value to_i32(Value x) { return b.convert(x, T::I32); }
  Value from_i32(Value i) { return b.convert(i, f); }
  Value i32(int32_t v) { return b.ci(v); }
  Value iadd(Value x, Value y) { return b.add(x, y); }
  Value isub(Value x, Value y) { return b.sub(x, y); }
  Value ishr(Value x, int n) { return b.shr(x, b.ci(n)); }  // arithmetic: x is signed
  Value bits(Value x) { return b.bitcast(x, ut); }
  Value from_bits(Value x) { return b.bitcast(x, f); }
  Value u(uint64_t v) { return f64 ? b.m.const_u64(v) : b.cu(uint32_t(v)); }
  Value uand(Value x, Value y) { return b.band(x, y); }
  Value uor(Value x, Value y) { return b.bor(x, y); }
  Value ushr(Value x, int n) { return b.shr(x, b.cu(uint32_t(n))); }  // logical: x is unsigned
  Value ushl(Value x, int n) { return b.shl(x, b.cu(uint32_t(n))); }
  Value widen(Value i) { return b.convert(i, ut); }  // non-negative: zero-extends to U64
  Value narrow(Value x) { return b.convert(x, T::I32); }
};

}  // namespace

Value math_exp(Builder& b, Value x) {
  SpirvOps a(b, x.ty);
  return plugin::math::exp(a, x);
}

Value math_exp2(Builder& b, Value x) {
  SpirvOps a(b, x.ty);
  return plugin::math::exp2(a, x);
}

Value math_log(Builder& b, Value x) {
  SpirvOps a(b, x.ty);
  return plugin::math::log(a, x);
}

Value math_log2(Builder& b, Value x) {
  SpirvOps a(b, x.ty);
  return plugin::math::log2(a, x);
}

Value math_log1p(Builder& b, Value x) {
  SpirvOps a(b, x.ty);
  return plugin::math::log1p(a, x);
}

Value math_sigmoid(Builder& b, Value x) {
  SpirvOps a(b, x.ty);
  return plugin::math::sigmoid(a, x);
}

Value math_erf(Builder& b, Value x) {
  SpirvOps a(b, x.ty);
  return plugin::math::erf(a, x);
}

Value math_tanh(Builder& b, Value x) {
  SpirvOps a(b, x.ty);
  return plugin::math::tanh(a, x);
}

}  // namespace tegula::vulkan
