// exp, exp2, log, tanh, log2, log1p, erf and sigmoid on the device, in f32 and f64, stay
// within the conformance table's ulp limits (conformance/tolerances.json: 3 ulp, 5 for tanh,
// 4 for log1p and sigmoid) of a long double oracle over
// wide random ranges, values near overflow and underflow, subnormal inputs and results, and
// the special values (inf, NaN, -0), which must come out exactly as the float64 reference
// gives them (the signs of zero results included). Every module passes spirv-val.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace math_accuracy_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

struct Function {
  const char* name;
  long double (*oracle)(long double);
  double tolerance;  ///< ulps (conformance/tolerances.json)
};

const Function kExp{"exp", [](long double x) { return expl(x); }, 3};
const Function kExp2{"exp2", [](long double x) { return exp2l(x); }, 3};
const Function kLog{"log", [](long double x) { return logl(x); }, 3};
const Function kTanh{"tanh", [](long double x) { return tanhl(x); }, 5};
const Function kLog2{"log2", [](long double x) { return log2l(x); }, 3};
const Function kLog1p{"log1p", [](long double x) { return log1pl(x); }, 4};
const Function kErf{"erf", [](long double x) { return erfl(x); }, 3};
const Function kSigmoid{"sigmoid", [](long double x) { return 1.0L / (1.0L + expl(-x)); }, 4};

template <typename F>
const char* dtype_name() {
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

/// Run `map y = fn(x)` over `xs` on the device; the results, or an error in `why`.
template <typename F>
std::vector<F> run_device(const Function& fn, const std::vector<F>& xs, std::string& why) {
  const char* dt = dtype_name<F>();
  std::string text = std::string("kernel m(X: ") + dt + "[N], Y: " + dt + "[N]) grid(ceildiv(N, 256)) threads(256) {\n" +
                     "  alloc x: fragment " + dt + "[256]\n  copy X[bx * 256], x\n  map x = " + fn.name +
                     "(x)\n  copy x, Y[bx * 256]\n}\n";
  Env& e = env();
  if (e.target) {
    auto shader = generate_for(text, *e.target);
    if (!shader.is_ok()) return why = "generate: " + shader.status().str(), std::vector<F>{};
    std::string verdict = spirv_val(shader->words);
    if (!verdict.empty() && verdict != "skip") return why = "spirv-val: " + verdict, std::vector<F>{};
  }
  CompileOptions co;
  co.use_cache = false;
  auto kernel = e.dev->compile(text, co);
  if (!kernel.is_ok()) return why = "compile: " + kernel.status().str(), std::vector<F>{};
  size_t bytes = xs.size() * sizeof(F);
  auto in = e.dev->alloc(bytes);
  auto out = e.dev->alloc(bytes);
  if (!in.is_ok() || !out.is_ok()) return why = "alloc failed", std::vector<F>{};
  std::vector<uint8_t> poison(bytes, 0xff);
  if (!in->write(xs.data(), bytes).is_ok() || !out->write(poison.data(), bytes).is_ok()) return why = "write failed", std::vector<F>{};
  Status l = kernel->launch({Arg::tensor(*in), Arg::tensor(*out), Arg::integer(int64_t(xs.size()))});
  if (!l.is_ok()) return why = "launch: " + l.str(), std::vector<F>{};
  if (Status s = e.dev->synchronize(); !s.is_ok()) return why = "synchronize: " + s.str(), std::vector<F>{};
  std::vector<F> ys(xs.size());
  if (!out->read(ys.data(), bytes).is_ok()) return why = "read failed", std::vector<F>{};
  return ys;
}

/// How far `got` is from the oracle in ulps of F, or infinity when it breaks a rule that has
/// no tolerance (NaN-ness, infinities, the sign of a zero result).
template <typename F>
double error_ulps(const Function& fn, F x, F got, double* out_expected) {
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
std::string describe(const Function& fn, F x, F got, double expected, double err) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s.%s(%a) = %a, expected %a (%.3g ulp)", fn.name, dtype_name<F>(), double(x), double(got),
                expected, err);
  return buf;
}

/// Run every input, check each against the tolerance; reports the worst.
template <typename F>
void check_function(const Function& fn, const std::vector<F>& xs) {
  std::string why;
  std::vector<F> ys = run_device(fn, xs, why);
  REQUIRE_MESSAGE(why.empty(), fn.name << "." << dtype_name<F>() << ": " << why);
  REQUIRE(ys.size() == xs.size());
  double worst = 0;
  std::string worst_text = "no error";
  int failures = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    double expected = 0;
    double err = error_ulps<F>(fn, xs[i], ys[i], &expected);
    if (err > fn.tolerance && failures++ < 8) FAIL_CHECK(describe(fn, xs[i], ys[i], expected, err));
    if (err > worst || std::isnan(err)) worst = err, worst_text = describe(fn, xs[i], ys[i], expected, err);
  }
  MESSAGE(xs.size() << " inputs, worst: " << worst_text);
  CHECK(failures == 0);
}

// --- inputs ---------------------------------------------------------------------------------

template <typename F>
struct Inputs {
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
  Inputs<F> in;
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
  Inputs<F> in;
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
  Inputs<F> in;
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
  Inputs<F> in;
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
  Inputs<F> in;
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
  Inputs<F> in;
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
  Inputs<F> in;
  in.specials();
  in.uniform(20000, d ? -760 : -110, d ? 60 : 30);
  in.uniform(5000, -8, 8);
  in.log_uniform(3000, d ? -60 : -30, 3, true);
  return in.v;
}

}  // namespace

TEST_CASE("log2 within 3 ulp (exact on powers of two) and log1p within 4 ulp, near 0 and -1 included") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kLog2, log_inputs<float>());
  check_function<float>(kLog1p, log1p_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kLog2, log_inputs<double>());
  check_function<double>(kLog1p, log1p_inputs<double>());
}

TEST_CASE("erf within 3 ulp and sigmoid within 4 ulp, tiny, subnormal and saturated results included") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kErf, erf_inputs<float>());
  check_function<float>(kSigmoid, sigmoid_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kErf, erf_inputs<double>());
  check_function<double>(kSigmoid, sigmoid_inputs<double>());
}

TEST_CASE("exp and exp2 are within 3 ulp, subnormal results and overflow included") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kExp, exp_inputs<float>());
  check_function<float>(kExp2, exp2_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kExp, exp_inputs<double>());
  check_function<double>(kExp2, exp2_inputs<double>());
}

TEST_CASE("log is within 3 ulp over every binade, subnormal inputs included") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kLog, log_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kLog, log_inputs<double>());
}

TEST_CASE("tanh is within 5 ulp, keeps tiny and signed arguments and saturates") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kTanh, tanh_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kTanh, tanh_inputs<double>());
}

}  // namespace math_accuracy_test
