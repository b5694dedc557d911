/// \file
/// What the math accuracy tests of every backend share: the functions with their conformance
/// tolerances (conformance/tolerances.json: 3 ulp, 5 for tanh, 4 for log1p and sigmoid) and a
/// long double oracle, the inputs each function is tried on (wide random ranges, values near
/// overflow and underflow, subnormal inputs and results, the joins of a recipe's intervals,
/// and the special values inf, NaN and -0), and the error measure: ulps of the output format
/// at the oracle's value, or infinity where a rule has no tolerance (NaN-ness, infinities,
/// the sign of a zero result), as the conformance suite measures it.
///
/// Used by plugins/vulkan/tests/math_accuracy_test.cpp (on the device) and
/// plugins/hip/tests/math_accuracy_test.cpp (the generated IR run on the host). No test
/// framework: check_math returns what it found.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tegula::plugin::testing {

struct MathFunction {
  const char* name;
  long double (*oracle)(long double);
  double tolerance;  ///< ulps (conformance/tolerances.json)
};

inline const MathFunction kExp{"exp", [](long double x) { return expl(x); }, 3};
inline const MathFunction kExp2{"exp2", [](long double x) { return exp2l(x); }, 3};
inline const MathFunction kLog{"log", [](long double x) { return logl(x); }, 3};
inline const MathFunction kTanh{"tanh", [](long double x) { return tanhl(x); }, 5};
inline const MathFunction kLog2{"log2", [](long double x) { return log2l(x); }, 3};
inline const MathFunction kLog1p{"log1p", [](long double x) { return log1pl(x); }, 4};
inline const MathFunction kErf{"erf", [](long double x) { return erfl(x); }, 3};
inline const MathFunction kSigmoid{"sigmoid", [](long double x) { return 1.0L / (1.0L + expl(-x)); }, 4};

template <typename F>
const char* math_dtype_name() {
  return sizeof(F) == 8 ? "f64" : "f32";
}

/// One ulp of F at |x| (the subnormal spacing below the smallest normal), as the conformance
/// suite measures it.
template <typename F>
long double ulp_at(long double x) {
  x = std::fabs(x);
  const long double min_normal = std::numeric_limits<F>::min();
  const int digits = std::numeric_limits<F>::digits;  // 24 or 53
  if (std::isinf(x)) x = std::numeric_limits<F>::max();
  if (x < min_normal) return std::ldexp(min_normal, 1 - digits);
  int e = 0;
  std::frexp(x, &e);
  return std::ldexp(1.0L, e - digits);
}

/// How far `got` is from the oracle in ulps of F, or infinity when it breaks a rule that has
/// no tolerance (NaN-ness, infinities, the sign of a zero result).
template <typename F>
double error_ulps(const MathFunction& fn, F x, F got, double* out_expected) {
  long double r = fn.oracle(x);
  F expected = F(r);  // rounded once to F
  *out_expected = double(expected);
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(expected) || std::isinf(got)) {
    if (expected == got) return 0;
    // Overflowing a little early is allowed within the tolerance at the largest finite value,
    // as the conformance suite allows it.
    const long double mx = std::numeric_limits<F>::max();
    bool early = std::isinf(got) && std::signbit(got) == std::signbit(expected) &&
                 std::fabs((long double)expected) >= mx - fn.tolerance * ulp_at<F>(mx);
    return early ? 0 : INFINITY;
  }
  if (expected == 0 && got == 0 && std::signbit(expected) != std::signbit(got)) return INFINITY;
  return double(std::fabs((long double)got - r) / ulp_at<F>(r));
}

/// "exp.f32(x) = got, expected e (n ulp)" with every number in hex, exactly.
template <typename F>
std::string describe_math(const MathFunction& fn, F x, F got, double expected, double err) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s.%s(%a) = %a, expected %a (%.3g ulp)", fn.name, math_dtype_name<F>(), double(x), double(got),
                expected, err);
  return buf;
}

// --- inputs ---------------------------------------------------------------------------------

template <typename F>
struct MathInputs {
  std::mt19937_64 rng{0x7e6a1a};
  std::vector<F> v;

  void add(double x) { v.push_back(F(x)); }
  void both_signs(double x) {
    add(x);
    add(-x);
  }
  /// `n` values uniform in [lo, hi].
  void uniform(int n, double lo, double hi) {
    std::uniform_real_distribution<double> d(lo, hi);
    for (int i = 0; i < n; ++i) add(d(rng));
  }
  /// `n` values with magnitudes log-uniform in [2^lo, 2^hi], random signs when `sign`.
  void log_uniform(int n, double lo, double hi, bool sign) {
    std::uniform_real_distribution<double> d(lo, hi);
    for (int i = 0; i < n; ++i) {
      double m = std::exp2(d(rng));
      add(sign && (rng() & 1) ? -m : m);
    }
  }
  /// `n` random bit patterns of finite positive F: every binade, subnormals included.
  void positive_bits(int n) {
    using U = std::conditional_t<sizeof(F) == 8, uint64_t, uint32_t>;
    const U inf_bits = std::bit_cast<U>(std::numeric_limits<F>::infinity());
    for (int i = 0; i < n; ++i) v.push_back(std::bit_cast<F>(U(rng() % inf_bits)));
  }
  /// The special values every function sees, and the subnormal extremes.
  void specials() {
    const double inf = INFINITY;
    for (double x : {0.0, 1.0, 0.5, 2.0, 0.1, inf, double(std::numeric_limits<F>::max()), double(std::numeric_limits<F>::min()),
                     double(std::numeric_limits<F>::denorm_min()), 3 * double(std::numeric_limits<F>::denorm_min()),
                     double(std::numeric_limits<F>::min()) / 3})
      both_signs(x);
    add(NAN);
    add(-NAN);
  }
};

template <typename F>
std::vector<F> exp_inputs() {
  const bool d = sizeof(F) == 8;
  MathInputs<F> in;
  in.specials();
  const double over = d ? 709.782712893384 : 88.72283905206835;     // ln(max)
  const double under = d ? -745.1332191019411 : -103.97207708399179;  // ln(min subnormal / 2)
  const double sub = d ? -708.3964185322641 : -87.33654475055310;    // ln(min normal)
  for (double t : {over, under, sub}) in.uniform(2000, t - 2, t + 2);
  in.uniform(20000, under - 20, over + 20);
  in.uniform(5000, -1, 1);
  in.log_uniform(5000, d ? -60 : -30, 3, true);
  return in.v;
}

template <typename F>
std::vector<F> exp2_inputs() {
  const bool d = sizeof(F) == 8;
  MathInputs<F> in;
  in.specials();
  const double over = d ? 1024 : 128, under = d ? -1075 : -150, sub = d ? -1022 : -126;
  for (double t : {over, under, sub}) {
    in.uniform(2000, t - 2, t + 2);
    for (double k = -4; k <= 4; k += 0.5) in.add(t + k);  // integers and ties around the edges
  }
  in.uniform(20000, under - 20, over + 20);
  in.uniform(5000, -1, 1);
  in.log_uniform(5000, d ? -60 : -30, 3, true);
  for (int k = -40; k <= 40; ++k) in.add(k * 0.5);
  return in.v;
}

template <typename F>
std::vector<F> log_inputs() {
  const bool d = sizeof(F) == 8;
  MathInputs<F> in;
  in.specials();
  in.positive_bits(30000);
  in.uniform(5000, 0.5, 2);  // around 1, where the result is small
  in.log_uniform(3000, d ? -50 : -22, -1, true);  // 1 + tiny and 1 - tiny, below
  for (size_t i = in.v.size() - 3000; i < in.v.size(); ++i) in.v[i] = F(1) + in.v[i];
  for (double x : {std::sqrt(2.0), std::sqrt(0.5), 3.0, 10.0, std::exp(1.0)}) {
    in.add(x);
    in.v.push_back(std::nextafter(F(x), F(0)));
    in.v.push_back(std::nextafter(F(x), F(4)));
  }
  in.both_signs(-1.0);  // negatives: NaN
  in.uniform(200, -100, -1e-3);
  return in.v;
}

template <typename F>
std::vector<F> tanh_inputs() {
  const bool d = sizeof(F) == 8;
  MathInputs<F> in;
  in.specials();
  in.uniform(15000, d ? -25 : -12, d ? 25 : 12);
  in.uniform(15000, -1, 1);
  in.log_uniform(15000, d ? -40 : -20, 5, true);
  for (double t : {1.0, 0.55, d ? 0x1p-28 : 0x1p-12, d ? 22.0 : 9.0}) {
    in.uniform(1000, -t * 1.01, -t * 0.99);
    in.uniform(1000, t * 0.99, t * 1.01);
  }
  return in.v;
}

/// log1p: around 0 in every binade down to the subnormals (where log1p x = x), near -1
/// (where it goes to -inf), and over every positive binade.
template <typename F>
std::vector<F> log1p_inputs() {
  const bool d = sizeof(F) == 8;
  MathInputs<F> in;
  in.specials();
  in.log_uniform(10000, d ? -1074 : -149, 0, true);
  in.positive_bits(10000);
  in.uniform(3000, -1, -0.5);
  for (double x : {-1.0, -0.9999, -0.5, 1e-8, -1e-8}) in.add(x);
  in.uniform(200, -100, -1.01);  // below -1: NaN
  return in.v;
}

/// erf: near 0 in every binade (2x/sqrt(pi)), across the interval joins (1, and 2, 3, 4 in
/// f64) and out to where it rounds to +-1.
template <typename F>
std::vector<F> erf_inputs() {
  const bool d = sizeof(F) == 8;
  MathInputs<F> in;
  in.specials();
  in.uniform(20000, -7, 7);
  in.log_uniform(5000, d ? -1074 : -149, 3, true);
  for (double t : {1.0, 2.0, 3.0, 4.0, 6.0}) in.uniform(500, t * 0.98, t * 1.02);
  return in.v;
}

/// sigmoid: the whole range, out to where e^-x overflows and the result is subnormal or 0.
template <typename F>
std::vector<F> sigmoid_inputs() {
  const bool d = sizeof(F) == 8;
  MathInputs<F> in;
  in.specials();
  in.uniform(20000, d ? -760 : -110, d ? 60 : 30);
  in.uniform(5000, -8, 8);
  in.log_uniform(3000, d ? -60 : -30, 3, true);
  return in.v;
}


/// The inputs `fn` is tried on.
template <typename F>
std::vector<F> math_inputs(const MathFunction& fn) {
  std::string_view n = fn.name;
  if (n == "exp") return exp_inputs<F>();
  if (n == "exp2") return exp2_inputs<F>();
  if (n == "log" || n == "log2") return log_inputs<F>();
  if (n == "tanh") return tanh_inputs<F>();
  if (n == "log1p") return log1p_inputs<F>();
  if (n == "erf") return erf_inputs<F>();
  return sigmoid_inputs<F>();
}

/// Every function of the table.
inline std::vector<const MathFunction*> math_functions() {
  return {&kExp, &kExp2, &kLog, &kLog2, &kLog1p, &kTanh, &kErf, &kSigmoid};
}

/// What check_math found: how many inputs, the worst error and its description, and the
/// first few inputs over the tolerance (with how many there were).
struct MathReport {
  size_t inputs = 0;
  double worst = 0;
  std::string worst_text = "no error";
  std::vector<std::string> failures;  ///< the first 8
  int failure_count = 0;
};

/// Each result `ys[i]` of `fn` at `xs[i]` against the oracle and the tolerance.
template <typename F>
MathReport check_math(const MathFunction& fn, const std::vector<F>& xs, const std::vector<F>& ys) {
  MathReport r;
  r.inputs = xs.size();
  for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
    double expected = 0;
    double err = error_ulps<F>(fn, xs[i], ys[i], &expected);
    if (err > fn.tolerance && r.failure_count++ < 8) r.failures.push_back(describe_math(fn, xs[i], ys[i], expected, err));
    if (err > r.worst || std::isnan(err)) r.worst = err, r.worst_text = describe_math(fn, xs[i], ys[i], expected, err);
  }
  if (ys.size() != xs.size()) {
    r.failure_count++;
    r.failures.push_back(std::string(fn.name) + ": " + std::to_string(ys.size()) + " results for " + std::to_string(xs.size()) + " inputs");
  }
  return r;
}

}  // namespace tegula::plugin::testing
