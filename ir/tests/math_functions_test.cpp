// log2, log1p, erf and sigmoid in the reference interpreter (float64, then rounded by the
// store), at the edges that matter: exact powers of two, log1p and erf near 0 (where the
// naive formulas lose every digit), the infinities, sigmoid far out on both sides (where
// 1 / (1 + e^-x) overflows); and integer abs, max and min, which are exact.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ir/tests/RunUtil.h"

namespace math_functions_test {

using namespace tegula;
using namespace tegula::ir;
using testing::Value;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

std::vector<double> run(const std::string& expr, const std::vector<double>& x, const std::string& dt = "f64",
                        const std::vector<double>& y = {}) {
  size_t n = x.size();
  std::string N = std::to_string(n);
  std::vector<Value> args = {Value::tensor(x), Value::tensor(y.empty() ? x : y), Value::tensor(std::vector<double>(n, 0))};
  std::string text = "kernel k(X: " + dt + "[" + N + "], Y: " + dt + "[" + N + "], Z: " + dt + "[" + N +
                     "]) grid(1) threads(32) {\n  parallel i in " + N + " {\n    store Z[i] = " + expr + "\n  }\n}\n";
  Status st = testing::run_kernel(text, args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  return args[2].values;
}

bool close(double got, double want, double rel = 1e-15) { return std::fabs(got - want) <= rel * std::fabs(want); }

}  // namespace

TEST_CASE("log2: exact on powers of two, and the logarithms' special values") {
  std::vector<double> x = {8, 0.125, 1, std::ldexp(1.0, -1074), 10, 0, -0.0, -1, kInf};
  std::vector<double> r = run("log2(X[i])", x);
  CHECK(r[0] == 3);
  CHECK(r[1] == -3);
  CHECK(r[2] == 0);
  CHECK(r[3] == -1074);
  CHECK(close(r[4], 3.321928094887362));
  CHECK(r[5] == -kInf);
  CHECK(r[6] == -kInf);
  CHECK(std::isnan(r[7]));
  CHECK(r[8] == kInf);
}

TEST_CASE("log1p keeps its digits near 0, and log1p(-1) is -inf") {
  std::vector<double> x = {1e-10, -1e-10, 1e-300, -0.0, -1, -2, 1, kInf};
  std::vector<double> r = run("log1p(X[i])", x);
  CHECK(close(r[0], 9.9999999995e-11, 1e-14));  // log(1 + x) would have ~6 digits left
  CHECK(close(r[1], -1.00000000005e-10, 1e-14));
  CHECK(r[2] == 1e-300);
  CHECK((r[3] == 0 && std::signbit(r[3])));
  CHECK(r[4] == -kInf);
  CHECK(std::isnan(r[5]));
  CHECK(close(r[6], 0.6931471805599453));
  CHECK(r[7] == kInf);
}

TEST_CASE("erf: odd, 2x/sqrt(pi) near 0, +-1 far out") {
  std::vector<double> x = {1e-20, -1e-20, -0.0, 0.5, -1.5, 6, -30, kInf, -kInf};
  std::vector<double> r = run("erf(X[i])", x);
  CHECK(close(r[0], 1.1283791670955126e-20));
  CHECK(close(r[1], -1.1283791670955126e-20));
  CHECK((r[2] == 0 && std::signbit(r[2])));
  CHECK(close(r[3], 0.5204998778130465));
  CHECK(close(r[4], -0.9661051464753108));
  CHECK(r[5] == 1);
  CHECK(r[6] == -1);
  CHECK(r[7] == 1);
  CHECK(r[8] == -1);
  // Exact GELU: x/2 (1 + erf(x / sqrt 2)), here in f32.
  std::vector<double> g = run("X[i] * 0.5 * (1.0 + erf(X[i] * 0.7071067811865476))", {1.0, -3.0}, "f32");
  CHECK(g[0] == double(float(0.8413447460685429)));
  CHECK(g[1] == double(float(-0.0040496940948902836)));
}

TEST_CASE("sigmoid: 1/2 at 0, the tiny values far below 0, 1 far above, NaN stays NaN") {
  std::vector<double> x = {0, 2, -2, -720, -800, 40, kInf, -kInf, std::numeric_limits<double>::quiet_NaN()};
  std::vector<double> r = run("sigmoid(X[i])", x);
  CHECK(r[0] == 0.5);
  CHECK(close(r[1], 0.8807970779778823));
  CHECK(close(r[2], 0.11920292202211755));
  CHECK(r[3] > 0);  // e^-720 is a subnormal double: 1 / (1 + e^720) would be 1 / inf = 0
  CHECK(close(r[3], std::exp(-720.0), 1e-10));
  CHECK(r[4] == 0);
  CHECK(r[5] == 1);
  CHECK(r[6] == 1);
  CHECK(r[7] == 0);
  CHECK(std::isnan(r[8]));
  // f32: far below 0 the result is a subnormal float, not 0.
  std::vector<double> f = run("sigmoid(X[i])", {-100, -88.5}, "f32");
  CHECK(f[0] == double(float(std::exp(-100.0))));
  CHECK(f[0] > 0);
  CHECK(f[1] == double(float(std::exp(-88.5) / (1 + std::exp(-88.5)))));
}

TEST_CASE("integer abs, max and min are exact; abs(INT32_MIN) saturates on the store to i32") {
  const double lo = -2147483648.0, hi = 2147483647.0;
  std::vector<double> x = {lo, hi, -5, 0, lo};
  std::vector<double> y = {hi, lo, 3, -0.0, lo + 1};
  CHECK(run("abs(X[i])", x, "i32") == std::vector<double>{hi, hi, 5, 0, hi});
  CHECK(run("max(X[i], Y[i])", x, "i32", y) == std::vector<double>{hi, hi, 3, 0, lo + 1});
  CHECK(run("min(X[i], Y[i])", x, "i32", y) == std::vector<double>{lo, lo, -5, 0, lo});
  CHECK(run("abs(X[i]) - 1", {lo}, "i32") == std::vector<double>{hi});  // 2^31 - 1, exact
  CHECK(run("max(X[i], Y[i])", {200, 0}, "u8", {255, 7}) == std::vector<double>{255, 7});
  CHECK(run("abs(X[i])", {-128, 127}, "i8") == std::vector<double>{127, 127});
}

}  // namespace math_functions_test
