// exp, exp2, log and tanh in plain arithmetic (why: Math.h). One routine per function, each
// written once for f32 and f64; the formats differ only in constants and polynomial length.
#include "plugins/vulkan/codegen/Math.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace tegula::vulkan {

using namespace spv;

namespace {

/// The float format of a value, and arithmetic on it whose every result is marked
/// NoContraction: Cody-Waite reduction and fdlibm's evaluation order rely on each operation
/// being rounded on its own, so drivers must neither fuse nor reassociate them.
struct Fp {
  Builder& b;
  T f;             ///< F32 or F64
  T u;             ///< the unsigned integer of the same width
  bool f64;
  int man;         ///< stored mantissa bits
  int bias;        ///< exponent bias

  Fp(Builder& b, T f)
      : b(b), f(f), u(f == T::F64 ? T::U64 : T::U32), f64(f == T::F64), man(f64 ? 52 : 23), bias(f64 ? 1023 : 127) {
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
  Value uconst(uint64_t v) { return f64 ? b.m.const_u64(v) : b.cu(uint32_t(v)); }

  /// c[0] + x * (c[1] + x * (c[2] + ...)).
  Value horner(Value x, const std::vector<double>& coeffs) {
    Value acc = c(coeffs.back());
    for (size_t i = coeffs.size() - 1; i-- > 0;) acc = add(mul(acc, x), c(coeffs[i]));
    return acc;
  }

  /// x limited to [lo, hi], NaN replaced by 0 (so that integer conversions of it stay
  /// defined; callers return the NaN itself).
  Value clamp(Value x, double lo, double hi) {
    Value v = b.select(b.lt(x, c(lo)), c(lo), x);
    v = b.select(b.gt(v, c(hi)), c(hi), v);
    return b.select(b.is_nan(x), c(0), v);
  }

  /// 2^n for an I32 n inside the normal exponent range, from its bits.
  Value pow2(Value n) {
    Value biased = b.convert(b.add(n, b.ci(bias)), u);  // positive: zero-extends to U64
    return b.bitcast(b.shl(biased, b.cu(uint32_t(man))), f);
  }

  /// p * 2^n for |n| up to twice the exponent range, p near 1: through two normal powers of
  /// two, so that a result in the subnormal range is rounded once (not flushed) and one past
  /// the largest finite value becomes inf.
  Value scale(Value p, Value n) {
    Value n1 = b.shr(n, b.ci(1));  // arithmetic shift: floor(n / 2)
    Value n2 = b.sub(n, n1);
    return mul(mul(p, pow2(n1)), pow2(n2));
  }
};

constexpr double kLn2 = 0.69314718055994530942;
constexpr double kSqrt2 = 1.41421356237309504880;

/// e^r - 1 for |r| <= ln2/2 (a little more after rounding) from its Taylor series: terms to
/// r^8 in f32 and r^14 in f64 leave a truncation error below a tenth of an ulp. Written as
/// r + r^2 q, so the leading term is exact and the rounding of the rest is small beside it.
Value expm1_reduced(Fp& a, Value r) {
  int terms = a.f64 ? 14 : 8;
  std::vector<double> q;  // q = 1/2! + r/3! + r^2/4! + ...
  double fact = 1;
  for (int i = 2; i <= terms; ++i) {
    fact *= i;
    q.push_back(1 / fact);
  }
  return a.add(r, a.mul(a.mul(r, r), a.horner(r, q)));
}

/// x = k ln2 + r with |r| <= ln2/2 (Cody and Waite): ln2_hi has enough trailing zero bits that
/// k ln2_hi is exact for every k the callers produce, and x - k ln2_hi is exact by Sterbenz's
/// lemma, so r carries only the rounding of k ln2_lo. k is returned as I32.
struct Reduced {
  Value k, r;
};
Reduced reduce_ln2(Fp& a, Value x) {
  // fdlibm's splits (e_exp.c, e_expf.c).
  double hi = a.f64 ? std::bit_cast<double>(uint64_t(0x3fe62e42fee00000)) : double(std::bit_cast<float>(0x3f317200u));
  double lo = a.f64 ? std::bit_cast<double>(uint64_t(0x3dea39ef35793c76)) : double(std::bit_cast<float>(0x35bfbe8eu));
  Value kf = a.b.glsl(GlslRoundEven, a.f, {a.mul(x, a.c(1 / kLn2))});
  Value r = a.sub(a.sub(x, a.mul(kf, a.c(hi))), a.mul(kf, a.c(lo)));
  return {a.b.convert(kf, T::I32), r};
}

/// e^x with x finite and clamped (exp's body, shared with tanh).
Value exp_clamped(Fp& a, Value xc) {
  Reduced red = reduce_ln2(a, xc);
  Value p = a.add(a.c(1), expm1_reduced(a, red.r));
  return a.scale(p, red.k);
}

}  // namespace

Value math_exp(Builder& b, Value x) {
  Fp a(b, x.ty);
  // Beyond these bounds the result is 0 or inf anyway (e^-110 < 2^-149 / 2, e^100 > 2^128;
  // likewise for f64); the clamp keeps k inside scale()'s range.
  Value xc = a.f64 ? a.clamp(x, -760, 720) : a.clamp(x, -110, 100);
  return b.select(b.is_nan(x), x, exp_clamped(a, xc));
}

Value math_exp2(Builder& b, Value x) {
  Fp a(b, x.ty);
  Value xc = a.f64 ? a.clamp(x, -1080, 1030) : a.clamp(x, -160, 130);
  // x = n + f with |f| <= 1/2, exactly; 2^f = e^(f ln2), whose product rounds by half an ulp
  // of a number below 0.35, a third of an ulp of the result.
  Value n = b.glsl(GlslRoundEven, a.f, {xc});
  Value r = a.mul(a.sub(xc, n), a.c(kLn2));
  Value p = a.add(a.c(1), expm1_reduced(a, r));
  return b.select(b.is_nan(x), x, a.scale(p, b.convert(n, T::I32)));
}

Value math_log(Builder& b, Value x) {
  Fp a(b, x.ty);
  // Subnormals are scaled into the normal range first (2^25, 2^54 as in fdlibm), so the
  // exponent and mantissa read from the bits are right and nothing flushes.
  double min_normal = a.f64 ? 0x1p-1022 : 0x1p-126;
  Value sub = b.lt(b.glsl(GlslFAbs, a.f, {x}), a.c(min_normal));
  Value xs = b.select(sub, a.mul(x, a.c(a.f64 ? 0x1p54 : 0x1p25)), x);
  Value k0 = b.select(sub, b.ci(a.f64 ? -54 : -25), b.ci(0));

  // x = 2^k m with m in [sqrt(2)/2, sqrt(2)): log x = k ln2 + log(1 + f), f = m - 1 exact.
  Value bits = b.bitcast(xs, a.u);
  Value field = b.band(b.shr(bits, b.cu(uint32_t(a.man))), a.uconst(a.f64 ? 0x7ff : 0xff));
  Value k = b.add(b.sub(b.convert(field, T::I32), b.ci(a.bias)), k0);
  uint64_t man_mask = (uint64_t(1) << a.man) - 1;
  uint64_t one = uint64_t(a.bias) << a.man;
  Value m = b.bitcast(b.bor(b.band(bits, a.uconst(man_mask)), a.uconst(one)), a.f);
  Value big = b.gt(m, a.c(kSqrt2));
  m = b.select(big, a.mul(m, a.c(0.5)), m);
  k = b.select(big, b.add(k, b.ci(1)), k);
  Value f = a.sub(m, a.c(1));

  // fdlibm (e_log.c, e_logf.c): s = f / (2 + f), log(1 + f) = 2s + s R(s^2), evaluated as
  // f - (hfsq - s (hfsq + R)) with hfsq = f^2 / 2, and k ln2 split in hi + lo parts.
  Value s = a.div(f, a.add(a.c(2), f));
  Value z = a.mul(s, s);
  Value w = a.mul(z, z);
  Value R;
  double ln2_hi, ln2_lo;
  if (a.f64) {
    Value t1 = a.mul(w, a.horner(w, {3.999999999940941908e-01, 2.222219843214978396e-01, 1.531383769920937332e-01}));
    Value t2 = a.mul(z, a.horner(w, {6.666666666666735130e-01, 2.857142874366239149e-01, 1.818357216161805012e-01,
                                     1.479819860511658591e-01}));
    R = a.add(t2, t1);
    ln2_hi = std::bit_cast<double>(uint64_t(0x3fe62e42fee00000));
    ln2_lo = std::bit_cast<double>(uint64_t(0x3dea39ef35793c76));
  } else {
    Value t1 = a.mul(w, a.horner(w, {0xccce13.0p-25, 0xf89e26.0p-26}));
    Value t2 = a.mul(z, a.horner(w, {0xaaaaaa.0p-24, 0x91e9ee.0p-25}));
    R = a.add(t2, t1);
    ln2_hi = std::bit_cast<float>(0x3f317180u);
    ln2_lo = std::bit_cast<float>(0x3717f7d1u);
  }
  Value dk = b.convert(k, a.f);
  Value hfsq = a.mul(a.c(0.5), a.mul(f, f));
  Value tail = a.sub(a.sub(hfsq, a.add(a.mul(s, a.add(hfsq, R)), a.mul(dk, a.c(ln2_lo)))), f);
  Value y = a.sub(a.mul(dk, a.c(ln2_hi)), tail);

  // The reference's special values: log(+inf) = inf, log(+-0) = -inf, log(x < 0) = NaN.
  y = b.select(b.eq(x, a.c(INFINITY)), x, y);
  y = b.select(b.eq(x, a.c(0)), a.c(-INFINITY), y);
  y = b.select(b.lt(x, a.c(0)), a.c(NAN), y);
  return b.select(b.is_nan(x), x, y);
}

Value math_tanh(Builder& b, Value x) {
  Fp a(b, x.ty);
  Value ax = b.glsl(GlslFAbs, a.f, {x});

  // |x| < atanh(1/2): the Taylor series tanh x = x + x z P(z), z = x^2, whose terms shrink
  // by 8x or more each (to x^19 in f32 and x^37 in f64, so the truncation is below 1/50 ulp);
  // the coefficients are 2^2n (2^2n - 1) B_2n / (2n)!, rounded. The correction is at most a
  // tenth of x, so the result is x plus a small term, rounded once.
  Value z = a.mul(ax, ax);
  std::vector<double> series = {-0.3333333333333333,    0.13333333333333333,    -0.05396825396825397,
                                0.021869488536155203,   -0.008863235529902197,  0.003592128036572481,
                                -0.0014558343870513183, 0.000590027440945586,   -0.00023912911424355248};
  if (a.f64)
    series.insert(series.end(), {9.691537956929451e-05, -3.927832388331683e-05, 1.5918905069328964e-05,
                                 -6.451689215655431e-06, 2.6147711512907546e-06, -1.0597268320104654e-06,
                                 4.294911078273806e-07, -1.7406618963571648e-07, 7.054636946400968e-08});
  Value taylor = a.add(ax, a.mul(ax, a.mul(z, a.horner(z, series))));

  // atanh(1/2) <= |x| < 1: tanh|x| = t / (t + 2) with t = e^(2|x|) - 1: an error e in t
  // becomes at most e/2 in the quotient, which lies in [1/2, 0.77), the lower half of its
  // binade. 2|x| is in [1.09, 2], so k is in [2, 3] and t = 2^k (e^r - 1) + (2^k - 1) adds a
  // small term to an exact one.
  Value u = b.select(b.lt(ax, a.c(1)), a.mul(ax, a.c(2)), a.c(2));
  Reduced red = reduce_ln2(a, u);
  Value p2 = a.pow2(red.k);
  Value t = a.add(a.mul(p2, expm1_reduced(a, red.r)), a.sub(p2, a.c(1)));
  Value mid = a.div(t, a.add(t, a.c(2)));

  // |x| >= 1: tanh|x| = 1 - 2 / (e^(2|x|) + 1); the subtracted term is below 0.24, so its
  // error shrinks, and e^(2|x|) = inf for large |x| gives exactly 1.
  Value e = exp_clamped(a, a.clamp(a.mul(ax, a.c(2)), 0, a.f64 ? 720 : 100));
  Value far = a.sub(a.c(1), a.div(a.c(2), a.add(e, a.c(1))));

  Value y = b.select(b.lt(ax, a.c(0.5493061443340548)), taylor, b.select(b.lt(ax, a.c(1)), mid, far));
  y = b.select(b.lt(x, a.c(0)), b.neg(y), y);
  // Below 2^-12 (2^-28) tanh x rounds to x: returning x itself keeps -0 and subnormals
  // exact whatever the device does with subnormal products. NaN stays NaN.
  Value tiny = b.lt(ax, a.c(a.f64 ? 0x1p-28 : 0x1p-12));
  return b.select(b.lor(tiny, b.is_nan(x)), x, y);
}

}  // namespace tegula::vulkan
