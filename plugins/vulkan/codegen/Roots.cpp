#include "plugins/vulkan/codegen/Roots.h"

namespace tegula::vulkan {

using namespace spv;

namespace {

constexpr double kTiny = 0x1p-124;  // below: scale (normal, so the test itself is exact)
constexpr double kHuge = 0x1p124;   // above: 1/b is near the subnormal range

}  // namespace

Value math_sqrt(Builder& b, Value x) {
  if (x.ty != T::F32) return b.glsl(GlslSqrt, x.ty, {x});
  Value small = b.lt(x, b.c(T::F32, kTiny));
  Value scaled = b.select(small, b.mul(x, b.c(T::F32, 0x1p64)), x);
  Value r = b.glsl(GlslSqrt, T::F32, {scaled});
  return b.select(small, b.mul(r, b.c(T::F32, 0x1p-32)), r);
}

Value math_rsqrt(Builder& b, Value x) {
  Value one = b.c(x.ty, 1.0);
  if (x.ty != T::F32) return b.fdiv(one, b.glsl(GlslSqrt, x.ty, {x}));
  Value small = b.lt(x, b.c(T::F32, kTiny));
  Value scaled = b.select(small, b.mul(x, b.c(T::F32, 0x1p64)), x);
  Value r = b.fdiv(one, b.glsl(GlslSqrt, T::F32, {scaled}));
  return b.select(small, b.mul(r, b.c(T::F32, 0x1p32)), r);
}

Value math_div(Builder& b, Value a, Value y, bool float64) {
  Value q = b.fdiv(a, y);
  if (a.ty != T::F32 || !float64) return q;
  b.m.capability(CapFloat64);
  Value aa = b.glsl(GlslFAbs, T::F32, {a}), ay = b.glsl(GlslFAbs, T::F32, {y}), aq = b.glsl(GlslFAbs, T::F32, {q});
  Value tiny = b.c(T::F32, kTiny), huge = b.c(T::F32, kHuge);
  Value risky = b.lor(b.lor(b.lt(aa, tiny), b.lt(ay, tiny)), b.lor(b.gt(ay, huge), b.lt(aq, tiny)));
  uint32_t out = b.var(T::F32, q);
  b.if_(risky, [&] {
    Value wide = b.fdiv(b.convert(a, T::F64), b.convert(y, T::F64));
    b.store(out, b.convert(wide, T::F32));
  });
  return b.load(out, T::F32);
}

}  // namespace tegula::vulkan
