/// \file
/// exp, exp2, log, log2, log1p, tanh, erf and sigmoid of f32 and f64 values in plain
/// arithmetic, written once for any backend's IR builder.
///
/// Why a backend needs them: a device's own transcendental instructions are either missing
/// (SPIR-V's GLSL.std.450 has no log1p, no erf and no f64 exp at all; the AMDGPU backend of
/// LLVM expands no f64 transcendental and no tanh, erf or log1p, which ROCm leaves to its ocml
/// library) or of implementation-defined precision (Vulkan allows 3 + 2|x| ulp for exp). The
/// conformance table wants 3 ulp (5 for tanh, 4 for log1p and sigmoid) against the float64
/// reference in every range, with the reference's infinities, NaNs, signed zeros and
/// subnormals. These recipes reach that with fdlibm's methods: Cody-Waite argument
/// reduction, short polynomials, powers of two built from integer bits, and subnormals
/// scaled into the normal range before any bit manipulation. They use add, sub, mul and div
/// (each correctly rounded on its own: the backend must neither fuse nor reassociate them),
/// round-to-even and fabs; nothing depends on how a device treats subnormal operands of a
/// multiply beyond IEEE 754.
///
/// A backend supplies `Ops`, one float format's arithmetic in its IR:
///
///   using Value = ...;          a value of the backend's IR
///   bool f64;                   the format: f64, or f32
///   Value c(double);            a float constant of the format
///   Value add, sub, mul, div(Value, Value);   each rounded on its own
///   Value neg(Value), fabs(Value), roundeven(Value);
///   Value lt, gt, ge, eq(Value, Value);       ordered comparisons, giving a boolean
///   Value is_nan(Value), lor(Value, Value), select(Value cond, Value a, Value b);
///   Value to_i32(Value);        float (integral, in range) to a 32-bit signed integer
///   Value from_i32(Value);      a 32-bit signed integer to the format
///   Value i32(int32_t), iadd(Value, Value), isub(Value, Value), ishr(Value, int);  (ishr: arithmetic)
///   Value bits(Value);          a float's bits as the unsigned integer of its width
///   Value from_bits(Value);     those bits back as the float
///   Value u(uint64_t), uand(Value, Value), uor(Value, Value), ushr(Value, int), ushl(Value, int);
///   Value widen(Value);         a non-negative 32-bit integer as the unsigned integer of the width
///   Value narrow(Value);        an unsigned integer of the width, small, as a 32-bit signed integer
///
/// plugins/vulkan/codegen/Math.cpp (SPIR-V) and plugins/hip/codegen/Math.cpp (LLVM IR) are the
/// two in the tree; plugins/support/testing/MathAccuracy.h holds the inputs and the ulp measure
/// their accuracy tests share.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tegula::plugin::math {

constexpr double kLn2 = 0.69314718055994530942;
constexpr double kSqrt2 = 1.41421356237309504880;

/// c[0] + x * (c[1] + x * (c[2] + ...)).
template <class Ops>
typename Ops::Value horner(Ops& a, typename Ops::Value x, const std::vector<double>& coeffs) {
  typename Ops::Value acc = a.c(coeffs.back());
  for (size_t i = coeffs.size() - 1; i-- > 0;) acc = a.add(a.mul(acc, x), a.c(coeffs[i]));
  return acc;
}

/// Horner over coefficients listed highest degree first.
template <class Ops>
typename Ops::Value horner_high_first(Ops& a, typename Ops::Value x, const std::vector<double>& coeffs) {
  return horner(a, x, std::vector<double>(coeffs.rbegin(), coeffs.rend()));
}

/// x limited to [lo, hi], NaN replaced by 0 (so that integer conversions of it stay defined;
/// callers return the NaN itself).
template <class Ops>
typename Ops::Value clamp(Ops& a, typename Ops::Value x, double lo, double hi) {
  auto v = a.select(a.lt(x, a.c(lo)), a.c(lo), x);
  v = a.select(a.gt(v, a.c(hi)), a.c(hi), v);
  return a.select(a.is_nan(x), a.c(0), v);
}

/// 2^n for a 32-bit n inside the normal exponent range, from its bits.
template <class Ops>
typename Ops::Value pow2(Ops& a, typename Ops::Value n) {
  int man = a.f64 ? 52 : 23, bias = a.f64 ? 1023 : 127;
  return a.from_bits(a.ushl(a.widen(a.iadd(n, a.i32(bias))), man));
}

/// p * 2^n for |n| up to twice the exponent range, p near 1: through two normal powers of two,
/// so that a result in the subnormal range is rounded once (not flushed) and one past the
/// largest finite value becomes inf.
template <class Ops>
typename Ops::Value scale(Ops& a, typename Ops::Value p, typename Ops::Value n) {
  auto n1 = a.ishr(n, 1);  // floor(n / 2)
  auto n2 = a.isub(n, n1);
  return a.mul(a.mul(p, pow2(a, n1)), pow2(a, n2));
}

/// e^r - 1 for |r| <= ln2/2 (a little more after rounding) from its Taylor series: terms to
/// r^8 in f32 and r^14 in f64 leave a truncation error below a tenth of an ulp. Written as
/// r + r^2 q, so the leading term is exact and the rounding of the rest is small beside it.
template <class Ops>
typename Ops::Value expm1_reduced(Ops& a, typename Ops::Value r) {
  int terms = a.f64 ? 14 : 8;
  std::vector<double> q;  // q = 1/2! + r/3! + r^2/4! + ...
  double fact = 1;
  for (int i = 2; i <= terms; ++i) {
    fact *= i;
    q.push_back(1 / fact);
  }
  return a.add(r, a.mul(a.mul(r, r), horner(a, r, q)));
}

/// x = k ln2 + r with |r| <= ln2/2 (Cody and Waite): ln2_hi has enough trailing zero bits that
/// k ln2_hi is exact for every k the callers produce, and x - k ln2_hi is exact by Sterbenz's
/// lemma, so r carries only the rounding of k ln2_lo. k is a 32-bit integer.
template <class Ops>
struct Reduced {
  typename Ops::Value k, r;
};
template <class Ops>
Reduced<Ops> reduce_ln2(Ops& a, typename Ops::Value x) {
  // fdlibm's splits (e_exp.c, e_expf.c).
  double hi = a.f64 ? std::bit_cast<double>(uint64_t(0x3fe62e42fee00000)) : double(std::bit_cast<float>(0x3f317200u));
  double lo = a.f64 ? std::bit_cast<double>(uint64_t(0x3dea39ef35793c76)) : double(std::bit_cast<float>(0x35bfbe8eu));
  auto kf = a.roundeven(a.mul(x, a.c(1 / kLn2)));
  auto r = a.sub(a.sub(x, a.mul(kf, a.c(hi))), a.mul(kf, a.c(lo)));
  return {a.to_i32(kf), r};
}

/// e^x with x finite and clamped (exp's body, shared with tanh).
template <class Ops>
typename Ops::Value exp_clamped(Ops& a, typename Ops::Value xc) {
  Reduced<Ops> red = reduce_ln2(a, xc);
  auto p = a.add(a.c(1), expm1_reduced(a, red.r));
  return scale(a, p, red.k);
}

template <class Ops>
typename Ops::Value exp(Ops& a, typename Ops::Value x) {
  // Beyond these bounds the result is 0 or inf anyway (e^-110 < 2^-149 / 2, e^100 > 2^128;
  // likewise for f64); the clamp keeps k inside scale()'s range.
  auto xc = a.f64 ? clamp(a, x, -760, 720) : clamp(a, x, -110, 100);
  return a.select(a.is_nan(x), x, exp_clamped(a, xc));
}

template <class Ops>
typename Ops::Value exp2(Ops& a, typename Ops::Value x) {
  auto xc = a.f64 ? clamp(a, x, -1080, 1030) : clamp(a, x, -160, 130);
  // x = n + f with |f| <= 1/2, exactly; 2^f = e^(f ln2), whose product rounds by half an ulp
  // of a number below 0.35, a third of an ulp of the result.
  auto n = a.roundeven(xc);
  auto r = a.mul(a.sub(xc, n), a.c(kLn2));
  auto p = a.add(a.c(1), expm1_reduced(a, r));
  return a.select(a.is_nan(x), x, scale(a, p, a.to_i32(n)));
}

/// x = 2^k (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)), and log(1 + f) = f - (hfsq - s (hfsq + R))
/// in fdlibm's pieces (e_log.c, e_logf.c): s = f / (2 + f), hfsq = f^2 / 2, R = R(s^2).
template <class Ops>
struct LogParts {
  typename Ops::Value dk, f, s, hfsq, R;
};

template <class Ops>
LogParts<Ops> log_parts(Ops& a, typename Ops::Value x) {
  const int man = a.f64 ? 52 : 23, bias = a.f64 ? 1023 : 127;
  // Subnormals are scaled into the normal range first (2^25, 2^54 as in fdlibm), so the
  // exponent and mantissa read from the bits are right and nothing flushes.
  double min_normal = a.f64 ? 0x1p-1022 : 0x1p-126;
  auto sub = a.lt(a.fabs(x), a.c(min_normal));
  auto xs = a.select(sub, a.mul(x, a.c(a.f64 ? 0x1p54 : 0x1p25)), x);
  auto k0 = a.select(sub, a.i32(a.f64 ? -54 : -25), a.i32(0));

  // x = 2^k m with m in [sqrt(2)/2, sqrt(2)): log x = k ln2 + log(1 + f), f = m - 1 exact.
  auto bits = a.bits(xs);
  auto field = a.uand(a.ushr(bits, man), a.u(a.f64 ? 0x7ff : 0xff));
  auto k = a.iadd(a.isub(a.narrow(field), a.i32(bias)), k0);
  uint64_t man_mask = (uint64_t(1) << man) - 1;
  uint64_t one = uint64_t(bias) << man;
  auto m = a.from_bits(a.uor(a.uand(bits, a.u(man_mask)), a.u(one)));
  auto big = a.gt(m, a.c(kSqrt2));
  m = a.select(big, a.mul(m, a.c(0.5)), m);
  k = a.select(big, a.iadd(k, a.i32(1)), k);
  auto f = a.sub(m, a.c(1));

  auto s = a.div(f, a.add(a.c(2), f));
  auto z = a.mul(s, s);
  auto w = a.mul(z, z);
  typename Ops::Value R;
  if (a.f64) {
    auto t1 = a.mul(w, horner(a, w, {3.999999999940941908e-01, 2.222219843214978396e-01, 1.531383769920937332e-01}));
    auto t2 = a.mul(z, horner(a, w, {6.666666666666735130e-01, 2.857142874366239149e-01, 1.818357216161805012e-01,
                                     1.479819860511658591e-01}));
    R = a.add(t2, t1);
  } else {
    auto t1 = a.mul(w, horner(a, w, {0xccce13.0p-25, 0xf89e26.0p-26}));
    auto t2 = a.mul(z, horner(a, w, {0xaaaaaa.0p-24, 0x91e9ee.0p-25}));
    R = a.add(t2, t1);
  }
  auto dk = a.from_i32(k);
  auto hfsq = a.mul(a.c(0.5), a.mul(f, f));
  return {dk, f, s, hfsq, R};
}

/// The logarithms' special values: log(+inf) = inf, log(+-0) = -inf, log(x < 0) = NaN, NaN.
template <class Ops>
typename Ops::Value log_specials(Ops& a, typename Ops::Value x, typename Ops::Value y) {
  y = a.select(a.eq(x, a.c(INFINITY)), x, y);
  y = a.select(a.eq(x, a.c(0)), a.c(-INFINITY), y);
  y = a.select(a.lt(x, a.c(0)), a.c(NAN), y);
  return a.select(a.is_nan(x), x, y);
}

template <class Ops>
typename Ops::Value log(Ops& a, typename Ops::Value x) {
  LogParts<Ops> p = log_parts(a, x);
  // k ln2 split in hi + lo parts, the lo part folded into the small tail.
  double ln2_hi = a.f64 ? std::bit_cast<double>(uint64_t(0x3fe62e42fee00000)) : double(std::bit_cast<float>(0x3f317180u));
  double ln2_lo = a.f64 ? std::bit_cast<double>(uint64_t(0x3dea39ef35793c76)) : double(std::bit_cast<float>(0x3717f7d1u));
  auto tail = a.sub(a.sub(p.hfsq, a.add(a.mul(p.s, a.add(p.hfsq, p.R)), a.mul(p.dk, a.c(ln2_lo)))), p.f);
  auto y = a.sub(a.mul(p.dk, a.c(ln2_hi)), tail);
  return log_specials(a, x, y);
}

template <class Ops>
typename Ops::Value log2(Ops& a, typename Ops::Value x) {
  LogParts<Ops> p = log_parts(a, x);
  // log2 x = k + log(1 + f) / ln2: exact for powers of two (f = 0), and otherwise k plus a
  // term below 1/2 in magnitude, rounded once more.
  auto log1pf = a.sub(p.f, a.sub(p.hfsq, a.mul(p.s, a.add(p.hfsq, p.R))));
  auto y = a.add(p.dk, a.mul(log1pf, a.c(1 / kLn2)));
  return log_specials(a, x, y);
}

template <class Ops>
typename Ops::Value log1p(Ops& a, typename Ops::Value x) {
  // Kahan's log1p: with u = 1 + x rounded, log(u) * (x / (u - 1)) corrects the rounding of u
  // (Goldberg, "What every computer scientist should know about floating-point", thm. 4);
  // u == 1 means |x| is below half an ulp of 1, where log1p x rounds to x (-0 and
  // subnormals stay exact). log(0) = -inf gives log1p(-1) = -inf, log of a negative u gives
  // NaN for x < -1, and +inf would be inf / inf.
  // Where u - 1 == x (every x past 2^24 in f32) the ratio is 1 and is not divided out: a
  // division by more than 2^126 is outside Vulkan's precision range, and NVIDIA's driver
  // gives 0 there (a reciprocal flushed to zero), which made log1p(3e38) = 0.
  auto u = a.add(a.c(1), x);
  auto um1 = a.sub(u, a.c(1));
  auto ratio = a.select(a.eq(um1, x), a.c(1), a.div(x, um1));
  auto y = a.mul(log(a, u), ratio);
  y = a.select(a.eq(u, a.c(1)), x, y);
  return a.select(a.eq(x, a.c(INFINITY)), x, y);
}

template <class Ops>
typename Ops::Value sigmoid(Ops& a, typename Ops::Value x) {
  // t = e^-|x| never overflows: sigmoid x = 1 / (1 + t) for x >= 0 and t / (1 + t) below,
  // which keeps the tiny results of very negative x (where e^-x would be inf). NaN: t is NaN.
  auto t = exp(a, a.neg(a.fabs(x)));
  auto num = a.select(a.ge(x, a.c(0)), a.c(1), t);
  return a.div(num, a.add(a.c(1), t));
}

// erf's polynomials, fitted for tegula with mpmath.chebyfit (near-minimax Chebyshev fits),
// highest degree first, each in a variable centred on its interval: erf(x) / x in t - 1/2
// with t = x^2 in [0, 1], and erfcx(x) = erfc(x) e^(x^2) in x - c on the intervals below.
// Modelled in the format's own arithmetic against mpmath's erf, the worst errors are 1.8 ulp
// (f32) and 2.0 ulp (f64), with a correctly rounded exp.
inline const std::vector<double> kErfSmall32 = {7.875874871388078e-05, -0.0005654101842083037, 0.003480216721072793,
                                                -0.018283355981111526, 0.07940998673439026,    -0.281072199344635,
                                                0.9654687643051147};
inline const std::vector<double> kErfSmall64 = {-7.795898827002142e-10, 9.432320191926508e-09,  -1.0420387617195658e-07,
                                                1.0536323840680666e-06, -9.614808641390195e-06, 7.829649688379886e-05,
                                                -0.0005611894221209664, 0.003480274496570158,   -0.018283884489152684,
                                                0.07940998675593687,    -0.2810721780454342,    0.9654687386698673};
struct ErfcxPiece {
  double lo, hi, centre;
  std::vector<double> coeffs;
};
inline const std::vector<ErfcxPiece> kErfcx32 = {
    {1, 4, 2.5, {-2.5171827289227622e-08, 1.0640273018225344e-07, -2.4285128574774717e-07, 9.535816616335069e-07,
                 -4.262210495653562e-06, 1.6171661627595313e-05, -5.883045378141105e-05, 0.00021085106709506363,
                 -0.0007336055277846754, 0.0024671009741723537, -0.008001566864550114, 0.024937987327575684,
                 -0.0743473470211029, 0.21080636978149414}}};
inline const std::vector<ErfcxPiece> kErfcx64 = {
    {1, 2, 1.5, {-4.932844202000261e-08, 1.8038197652346406e-07, -5.946998373950516e-07, 2.061689065129881e-06,
                 -6.975285854904505e-06, 2.286543658874603e-05, -7.265888759557882e-05, 0.00022330981211640024,
                 -0.0006619300686179933, 0.0018861348854630824, -0.005145957547915988, 0.013377340952802835,
                 -0.03293090529956347, 0.07615103985548055, -0.16362291773256007, 0.3215854164543175}},
    {2, 3, 2.5, {-1.696411408635626e-08, 7.05750661898197e-08, -2.726770726930534e-07, 1.0840311055681113e-06,
                 -4.214343130963489e-06, 1.596205712687532e-05, -5.886896055724396e-05, 0.00021101980639242626,
                 -0.0007335909373117802, 0.0024670368164479654, -0.008001569382098908, 0.024937997086645233,
                 -0.07434734678979468, 0.21080636406114361}},
    {3, 4, 3.5, {-4.1329775113846503e-07, 1.892044958266753e-06, -8.23544439319123e-06, 3.6169636321321364e-05,
                 -0.00015546914576302278, 0.0006526874071154314, -0.00267307443252527, 0.010661133158714493,
                 -0.04132357783328809, 0.1552936556090633}},
    {4, 6, 5.0, {-2.4853846318629353e-08, 1.4552545520418797e-07, -7.791179192739018e-07, 4.435252862215888e-06,
                 -2.49544276810777e-05, 0.00013810568506979497, -0.0007528967452212313, 0.004040688499736073,
                 -0.021332789766191164, 0.11070463774125715}}};

template <class Ops>
typename Ops::Value erf(Ops& a, typename Ops::Value x) {
  auto ax = a.fabs(x);
  // |x| < 1: x P(x^2 - 1/2). A subnormal or zero x gives x times 2/sqrt(pi), -0 stays -0.
  auto t = a.mul(x, x);
  auto small = a.mul(x, horner_high_first(a, a.sub(t, a.c(0.5)), a.f64 ? kErfSmall64 : kErfSmall32));
  // 1 <= |x| < 4 (f32) or 6 (f64): 1 - e^(-x^2) erfcx(|x|); the subtracted term is below
  // 0.16, so its errors shrink in the result. Beyond, erf rounds to +-1.
  const std::vector<ErfcxPiece>& pieces = a.f64 ? kErfcx64 : kErfcx32;
  double top = pieces.back().hi;
  auto axc = a.select(a.lt(ax, a.c(top)), ax, a.c(top));
  auto cx = horner_high_first(a, a.sub(axc, a.c(pieces[0].centre)), pieces[0].coeffs);
  for (size_t i = 1; i < pieces.size(); ++i) {
    auto v = horner_high_first(a, a.sub(axc, a.c(pieces[i].centre)), pieces[i].coeffs);
    cx = a.select(a.lt(axc, a.c(pieces[i].lo)), cx, v);
  }
  auto e = exp(a, a.neg(a.mul(axc, axc)));
  auto mid = a.sub(a.c(1), a.mul(e, cx));
  auto y = a.select(a.lt(ax, a.c(top)), mid, a.c(1));
  y = a.select(a.lt(x, a.c(0)), a.neg(y), y);
  y = a.select(a.lt(ax, a.c(1)), small, y);
  return a.select(a.is_nan(x), x, y);
}

template <class Ops>
typename Ops::Value tanh(Ops& a, typename Ops::Value x) {
  auto ax = a.fabs(x);

  // |x| < atanh(1/2): the Taylor series tanh x = x + x z P(z), z = x^2, whose terms shrink
  // by 8x or more each (to x^19 in f32 and x^37 in f64, so the truncation is below 1/50 ulp);
  // the coefficients are 2^2n (2^2n - 1) B_2n / (2n)!, rounded. The correction is at most a
  // tenth of x, so the result is x plus a small term, rounded once.
  auto z = a.mul(ax, ax);
  std::vector<double> series = {-0.3333333333333333,    0.13333333333333333,    -0.05396825396825397,
                                0.021869488536155203,   -0.008863235529902197,  0.003592128036572481,
                                -0.0014558343870513183, 0.000590027440945586,   -0.00023912911424355248};
  if (a.f64)
    series.insert(series.end(), {9.691537956929451e-05, -3.927832388331683e-05, 1.5918905069328964e-05,
                                 -6.451689215655431e-06, 2.6147711512907546e-06, -1.0597268320104654e-06,
                                 4.294911078273806e-07, -1.7406618963571648e-07, 7.054636946400968e-08});
  auto taylor = a.add(ax, a.mul(ax, a.mul(z, horner(a, z, series))));

  // atanh(1/2) <= |x| < 1: tanh|x| = t / (t + 2) with t = e^(2|x|) - 1: an error e in t
  // becomes at most e/2 in the quotient, which lies in [1/2, 0.77), the lower half of its
  // binade. 2|x| is in [1.09, 2], so k is in [2, 3] and t = 2^k (e^r - 1) + (2^k - 1) adds a
  // small term to an exact one.
  auto u = a.select(a.lt(ax, a.c(1)), a.mul(ax, a.c(2)), a.c(2));
  Reduced<Ops> red = reduce_ln2(a, u);
  auto p2 = pow2(a, red.k);
  auto t = a.add(a.mul(p2, expm1_reduced(a, red.r)), a.sub(p2, a.c(1)));
  auto mid = a.div(t, a.add(t, a.c(2)));

  // |x| >= 1: tanh|x| = 1 - 2 / (e^(2|x|) + 1); the subtracted term is below 0.24, so its
  // error shrinks, and e^(2|x|) = inf for large |x| gives exactly 1.
  auto e = exp_clamped(a, clamp(a, a.mul(ax, a.c(2)), 0, a.f64 ? 720 : 100));
  auto far = a.sub(a.c(1), a.div(a.c(2), a.add(e, a.c(1))));

  auto y = a.select(a.lt(ax, a.c(0.5493061443340548)), taylor, a.select(a.lt(ax, a.c(1)), mid, far));
  y = a.select(a.lt(x, a.c(0)), a.neg(y), y);
  // Below 2^-12 (2^-28) tanh x rounds to x: returning x itself keeps -0 and subnormals
  // exact whatever the device does with subnormal products. NaN stays NaN.
  auto tiny = a.lt(ax, a.c(a.f64 ? 0x1p-28 : 0x1p-12));
  return a.select(a.lor(tiny, a.is_nan(x)), x, y);
}

}  // namespace tegula::plugin::math
