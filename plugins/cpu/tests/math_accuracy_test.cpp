// exp, exp2, log and tanh on f32 are polynomial approximations, not libm (log2, log1p and erf
// are libm in f64, sigmoid builds on exp): over a dense
// sweep of inputs (every 2^-12 of the range that matters, plus specials and subnormal
// results) they stay within 2 units in the last place of the correctly rounded result,
// and give exactly the special values (Inf, 0, NaN, -Inf, +-1).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "plugins/cpu/tests/CpuTestUtil.h"

namespace math_accuracy_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const char* kMath = R"(
kernel math(X: f32[N], E: f32[N], E2: f32[N], L: f32[N], T: f32[N]) grid(ceildiv(N, 256)) threads(1) {
  alloc x: fragment f32[256]
  alloc y: fragment f32[256]
  copy X[bx * 256], x
  map y = exp(x)
  copy y, E[bx * 256]
  map y = exp2(x)
  copy y, E2[bx * 256]
  map y = log(x)
  copy y, L[bx * 256]
  map y = tanh(x)
  copy y, T[bx * 256]
}
)";

/// Distance in units in the last place between an f32 result and the exact value.
double ulp_error(float got, double exact) {
  if (std::isnan(exact)) return std::isnan(got) ? 0 : 1e9;
  float rounded = float(exact);  // past the f32 range this is Inf, which is the right answer
  if (std::isinf(rounded) || std::isinf(got)) return got == rounded ? 0 : 1e9;
  double ulp = std::ldexp(1.0, std::max(std::ilogb(float(exact)), -126) - 23);
  return std::fabs(double(got) - exact) / ulp;
}

}  // namespace

TEST_CASE("f32 exp, exp2, log and tanh within 2 ulp, specials exact") {
  std::vector<double> xs = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 88.72, 88.73, -87.33, -103.0, -104.0, -150.0,
                            127.9, 128.0, -149.0, -151.0, 1e-45, 1e-40, 1e-30, 3e38, 0.625, -0.625, 9.0, -9.0, 20.0};
  for (double x = -110; x <= 110; x += 1.0 / 4096) xs.push_back(x);
  for (double x = 1e-30; x < 1e30; x *= 1.0001) xs.push_back(x);
  ir::Kernel k = parse(kMath);
  int64_t n = int64_t(xs.size());
  examples::LaunchData d = make_data(k, {{"N", n}}, 1);
  fill_tensor(d.tensors[0], [&](int64_t i) { return xs[size_t(i)]; });
  Status st = run_cpu(kMath, k, d);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  double worst[4] = {0, 0, 0, 0};
  double at[4] = {0, 0, 0, 0};
  for (int64_t i = 0; i < n; ++i) {
    double x = d.tensors[0].at(i);  // the f32 input
    double exact[4] = {std::exp(x), std::exp2(x), std::log(x), std::tanh(x)};
    for (int f = 0; f < 4; ++f) {
      double e = ulp_error(float(d.tensors[size_t(1 + f)].at(i)), exact[f]);
      if (e > worst[f]) {
        worst[f] = e;
        at[f] = x;
      }
    }
  }
  CHECK_MESSAGE(worst[0] <= 2, "exp: ", worst[0], " ulp at ", at[0]);
  CHECK_MESSAGE(worst[1] <= 2, "exp2: ", worst[1], " ulp at ", at[1]);
  CHECK_MESSAGE(worst[2] <= 2, "log: ", worst[2], " ulp at ", at[2]);
  CHECK_MESSAGE(worst[3] <= 2, "tanh: ", worst[3], " ulp at ", at[3]);
  MESSAGE("worst ulp: exp ", worst[0], ", exp2 ", worst[1], ", log ", worst[2], ", tanh ", worst[3]);
}

namespace {

const char* kMoreMath = R"(
kernel math(X: f32[N], L2: f32[N], L1P: f32[N], ER: f32[N], SG: f32[N]) grid(ceildiv(N, 256)) threads(1) {
  alloc x: fragment f32[256]
  alloc y: fragment f32[256]
  copy X[bx * 256], x
  map y = log2(x)
  copy y, L2[bx * 256]
  map y = log1p(x)
  copy y, L1P[bx * 256]
  map y = erf(x)
  copy y, ER[bx * 256]
  map y = sigmoid(x)
  copy y, SG[bx * 256]
}
)";

}  // namespace

TEST_CASE("f32 log2, log1p and erf within 1 ulp (libm in f64), sigmoid within 3 ulp, specials exact") {
  std::vector<double> xs = {0.0, -0.0, 1.0, -1.0, 2.0, 8.0, 0.125, INFINITY, -INFINITY, NAN, -0.9999, 1e-45, -1e-45,
                            1e-40, 3e38, -3e38, -88.0, -100.0, -103.0, -104.0, -120.0, 88.0, 3.9, -3.9, 6.0};
  for (double x = -110; x <= 40; x += 1.0 / 512) xs.push_back(x);
  for (double x = 1e-40; x < 1e30; x *= 1.001) {
    xs.push_back(x);
    if (x < 1) xs.push_back(-x);
  }
  ir::Kernel k = parse(kMoreMath);
  int64_t n = int64_t(xs.size());
  examples::LaunchData d = make_data(k, {{"N", n}}, 1);
  fill_tensor(d.tensors[0], [&](int64_t i) { return xs[size_t(i)]; });
  Status st = run_cpu(kMoreMath, k, d);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  const char* names[4] = {"log2", "log1p", "erf", "sigmoid"};
  const double limit[4] = {1, 1, 1, 3};
  double worst[4] = {0, 0, 0, 0}, at[4] = {0, 0, 0, 0};
  for (int64_t i = 0; i < n; ++i) {
    double x = d.tensors[0].at(i);
    double t = std::exp(-std::fabs(x));
    double exact[4] = {std::log2(x), std::log1p(x), std::erf(x), (x >= 0 ? 1.0 : t) / (1.0 + t)};
    for (int f = 0; f < 4; ++f) {
      double e = ulp_error(float(d.tensors[size_t(1 + f)].at(i)), exact[f]);
      if (e > worst[f]) worst[f] = e, at[f] = x;
    }
  }
  for (int f = 0; f < 4; ++f) CHECK_MESSAGE(worst[f] <= limit[f], names[f], ": ", worst[f], " ulp at ", at[f]);
  MESSAGE("worst ulp: log2 ", worst[0], ", log1p ", worst[1], ", erf ", worst[2], ", sigmoid ", worst[3]);
}

}  // namespace math_accuracy_test
