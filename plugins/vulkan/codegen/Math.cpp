// exp, exp2, log, tanh, log2, log1p, erf and sigmoid in plain arithmetic (why: Math.h). One
// routine per function, each written once for f32 and f64; the formats differ only in
// constants and polynomial length.
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

namespace {

/// x = 2^k (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)), and log(1 + f) = f - (hfsq - s (hfsq + R))
/// in fdlibm's pieces (e_log.c, e_logf.c): s = f / (2 + f), hfsq = f^2 / 2, R = R(s^2).
struct LogParts {
  Value dk, f, s, hfsq, R;
};

LogParts log_parts(Fp& a, Value x) {
  Builder& b = a.b;
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

  Value s = a.div(f, a.add(a.c(2), f));
  Value z = a.mul(s, s);
  Value w = a.mul(z, z);
  Value R;
  if (a.f64) {
    Value t1 = a.mul(w, a.horner(w, {3.999999999940941908e-01, 2.222219843214978396e-01, 1.531383769920937332e-01}));
    Value t2 = a.mul(z, a.horner(w, {6.666666666666735130e-01, 2.857142874366239149e-01, 1.818357216161805012e-01,
                                     1.479819860511658591e-01}));
    R = a.add(t2, t1);
  } else {
    Value t1 = a.mul(w, a.horner(w, {0xccce13.0p-25, 0xf89e26.0p-26}));
    Value t2 = a.mul(z, a.horner(w, {0xaaaaaa.0p-24, 0x91e9ee.0p-25}));
    R = a.add(t2, t1);
  }
  Value dk = b.convert(k, a.f);
  Value hfsq = a.mul(a.c(0.5), a.mul(f, f));
  return {dk, f, s, hfsq, R};
}

/// The logarithms' special values: log(+inf) = inf, log(+-0) = -inf, log(x < 0) = NaN, NaN.
Value log_specials(Fp& a, Value x, Value y) {
  Builder& b = a.b;
  y = b.select(b.eq(x, a.c(INFINITY)), x, y);
  y = b.select(b.eq(x, a.c(0)), a.c(-INFINITY), y);
  y = b.select(b.lt(x, a.c(0)), a.c(NAN), y);
  return b.select(b.is_nan(x), x, y);
}

}  // namespace

Value math_log(Builder& b, Value x) {
  Fp a(b, x.ty);
  LogParts p = log_parts(a, x);
  // k ln2 split in hi + lo parts, the lo part folded into the small tail.
  double ln2_hi = a.f64 ? std::bit_cast<double>(uint64_t(0x3fe62e42fee00000)) : double(std::bit_cast<float>(0x3f317180u));
  double ln2_lo = a.f64 ? std::bit_cast<double>(uint64_t(0x3dea39ef35793c76)) : double(std::bit_cast<float>(0x3717f7d1u));
  Value tail = a.sub(a.sub(p.hfsq, a.add(a.mul(p.s, a.add(p.hfsq, p.R)), a.mul(p.dk, a.c(ln2_lo)))), p.f);
  Value y = a.sub(a.mul(p.dk, a.c(ln2_hi)), tail);
  return log_specials(a, x, y);
}

Value math_log2(Builder& b, Value x) {
  Fp a(b, x.ty);
  LogParts p = log_parts(a, x);
  // log2 x = k + log(1 + f) / ln2: exact for powers of two (f = 0), and otherwise k plus a
  // term below 1/2 in magnitude, rounded once more.
  Value log1pf = a.sub(p.f, a.sub(p.hfsq, a.mul(p.s, a.add(p.hfsq, p.R))));
  Value y = a.add(p.dk, a.mul(log1pf, a.c(1 / kLn2)));
  return log_specials(a, x, y);
}

Value math_log1p(Builder& b, Value x) {
  Fp a(b, x.ty);
  // Kahan's log1p: with u = 1 + x rounded, log(u) * (x / (u - 1)) corrects the rounding of u
  // (Goldberg, "What every computer scientist should know about floating-point", thm. 4);
  // u == 1 means |x| is below half an ulp of 1, where log1p x rounds to x (-0 and
  // subnormals stay exact). log(0) = -inf gives log1p(-1) = -inf, log of a negative u gives
  // NaN for x < -1, and +inf would be inf / inf.
  // Where u - 1 == x (every x past 2^24 in f32) the ratio is 1 and is not divided out: a
  // division by more than 2^126 is outside Vulkan's precision range, and NVIDIA's driver
  // gives 0 there (a reciprocal flushed to zero), which made log1p(3e38) = 0.
  Value u = a.add(a.c(1), x);
  Value um1 = a.sub(u, a.c(1));
  Value ratio = b.select(b.eq(um1, x), a.c(1), a.div(x, um1));
  Value y = a.mul(math_log(b, u), ratio);
  y = b.select(b.eq(u, a.c(1)), x, y);
  return b.select(b.eq(x, a.c(INFINITY)), x, y);
}

Value math_sigmoid(Builder& b, Value x) {
  Fp a(b, x.ty);
  // t = e^-|x| never overflows: sigmoid x = 1 / (1 + t) for x >= 0 and t / (1 + t) below,
  // which keeps the tiny results of very negative x (where e^-x would be inf). NaN: t is NaN.
  Value t = math_exp(b, b.neg(b.glsl(GlslFAbs, a.f, {x})));
  Value num = b.select(b.ge(x, a.c(0)), a.c(1), t);
  return a.div(num, a.add(a.c(1), t));
}

namespace {

// erf's polynomials, fitted for tegula with mpmath.chebyfit (near-minimax Chebyshev fits),
// highest degree first, each in a variable centred on its interval: erf(x) / x in t - 1/2
// with t = x^2 in [0, 1], and erfcx(x) = erfc(x) e^(x^2) in x - c on the intervals below.
// Modelled in the format's own arithmetic against mpmath's erf, the worst errors are 1.8 ulp
// (f32) and 2.0 ulp (f64), with a correctly rounded exp.
const std::vector<double> kErfSmall32 = {7.875874871388078e-05, -0.0005654101842083037, 0.003480216721072793,
                                         -0.018283355981111526, 0.07940998673439026,    -0.281072199344635,
                                         0.9654687643051147};
const std::vector<double> kErfSmall64 = {-7.795898827002142e-10, 9.432320191926508e-09,  -1.0420387617195658e-07,
                                         1.0536323840680666e-06, -9.614808641390195e-06, 7.829649688379886e-05,
                                         -0.0005611894221209664, 0.003480274496570158,   -0.018283884489152684,
                                         0.07940998675593687,    -0.2810721780454342,    0.9654687386698673};
struct ErfcxPiece {
  double lo, hi, centre;
  std::vector<double> coeffs;
};
const std::vector<ErfcxPiece> kErfcx32 = {
    {1, 4, 2.5, {-2.5171827289227622e-08, 1.0640273018225344e-07, -2.4285128574774717e-07, 9.535816616335069e-07,
                 -4.262210495653562e-06, 1.6171661627595313e-05, -5.883045378141105e-05, 0.00021085106709506363,
                 -0.0007336055277846754, 0.0024671009741723537, -0.008001566864550114, 0.024937987327575684,
                 -0.0743473470211029, 0.21080636978149414}}};
const std::vector<ErfcxPiece> kErfcx64 = {
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

/// Horner over coefficients listed highest degree first (Fp::horner takes them lowest first).
Value horner_high_first(Fp& a, Value x, const std::vector<double>& coeffs) {
  return a.horner(x, std::vector<double>(coeffs.rbegin(), coeffs.rend()));
}

}  // namespace

Value math_erf(Builder& b, Value x) {
  Fp a(b, x.ty);
  Value ax = b.glsl(GlslFAbs, a.f, {x});
  // |x| < 1: x P(x^2 - 1/2). A subnormal or zero x gives x times 2/sqrt(pi), -0 stays -0.
  Value t = a.mul(x, x);
  Value small = a.mul(x, horner_high_first(a, a.sub(t, a.c(0.5)), a.f64 ? kErfSmall64 : kErfSmall32));
  // 1 <= |x| < 4 (f32) or 6 (f64): 1 - e^(-x^2) erfcx(|x|); the subtracted term is below
  // 0.16, so its errors shrink in the result. Beyond, erf rounds to +-1.
  const std::vector<ErfcxPiece>& pieces = a.f64 ? kErfcx64 : kErfcx32;
  double top = pieces.back().hi;
  Value axc = b.select(b.lt(ax, a.c(top)), ax, a.c(top));
  Value cx;
  for (size_t i = 0; i < pieces.size(); ++i) {
    Value v = horner_high_first(a, a.sub(axc, a.c(pieces[i].centre)), pieces[i].coeffs);
    cx = i == 0 ? v : b.select(b.lt(axc, a.c(pieces[i].lo)), cx, v);
  }
  Value e = math_exp(b, b.neg(a.mul(axc, axc)));
  Value mid = a.sub(a.c(1), a.mul(e, cx));
  Value y = b.select(b.lt(ax, a.c(top)), mid, a.c(1));
  y = b.select(b.lt(x, a.c(0)), b.neg(y), y);
  y = b.select(b.lt(ax, a.c(1)), small, y);
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
