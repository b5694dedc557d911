// max and min (the functions and the max/min/absmax reductions) are IEEE 754-2019
// maximumNumber/minimumNumber in the reference interpreter, whatever the build type:
// -0 < +0 in either operand order, and a NaN loses to a number.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ir/MaxMin.h"
#include "ir/tests/RunUtil.h"

namespace max_min_signed_zero_test {

using namespace tegula;
using namespace tegula::ir;
using testing::Value;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

/// Same value and, for zeros, the same sign; NaN equals NaN.
bool same(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

/// a and b are opaque to the optimiser, so the test sees what the code computes at run time
/// and not what a constant folder decided.
double launder(double x) {
  volatile double v = x;
  return v;
}

}  // namespace

TEST_CASE("maximum_number and minimum_number order -0 below +0 and let a NaN lose") {
  struct Row {
    double a, b, max, min;
  };
  const Row rows[] = {
      {0.0, -0.0, 0.0, -0.0},   {-0.0, 0.0, 0.0, -0.0},  {-0.0, -0.0, -0.0, -0.0}, {0.0, 0.0, 0.0, 0.0},
      {kNaN, -0.0, -0.0, -0.0}, {-0.0, kNaN, -0.0, -0.0}, {kNaN, 1.5, 1.5, 1.5},    {-2.0, kNaN, -2.0, -2.0},
      {kNaN, kNaN, kNaN, kNaN}, {-kInf, kInf, kInf, -kInf}, {kNaN, -kInf, -kInf, -kInf}, {1.0, 2.0, 2.0, 1.0},
      {-1.0, -0.0, -0.0, -1.0}, {0.0, -1e-300, 0.0, -1e-300},
  };
  for (const Row& r : rows) {
    double a = launder(r.a), b = launder(r.b);
    CAPTURE(a);
    CAPTURE(b);
    CHECK(same(maximum_number(a, b), r.max));
    CHECK(same(minimum_number(a, b), r.min));
  }
}

TEST_CASE("map max and min give +0 and -0 for each order of a signed-zero pair, in every float dtype") {
  for (const char* dt : {"f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2"}) {
    CAPTURE(dt);
    // Element i pairs x[i] with y[i]: (+0, -0), (-0, +0), (-0, -0), (+0, +0), (NaN, -0), (-0, NaN).
    std::vector<Value> args = {Value::tensor({0.0, -0.0, -0.0, 0.0, kNaN, -0.0}), Value::tensor({-0.0, 0.0, -0.0, 0.0, -0.0, kNaN}),
                               Value::tensor(std::vector<double>(6, 7.0)), Value::tensor(std::vector<double>(6, 7.0))};
    std::string t = dt;
    Status st = testing::run_kernel("kernel k(X: " + t + "[6], Y: " + t + "[6], Hi: " + t + "[6], Lo: " + t +
                                        "[6]) grid(1) threads(8) {\n"
                                        "  alloc x: fragment " + t + "[8]\n"
                                        "  alloc y: fragment " + t + "[8]\n"
                                        "  alloc z: fragment " + t + "[8]\n"
                                        "  copy X, x\n"
                                        "  copy Y, y\n"
                                        "  map z = max(x, y)\n"
                                        "  copy z, Hi\n"
                                        "  map z = min(x, y)\n"
                                        "  copy z, Lo\n"
                                        "}\n",
                                    args);
    REQUIRE_MESSAGE(st.is_ok(), st.str());
    const double hi[] = {0.0, 0.0, -0.0, 0.0, -0.0, -0.0};
    const double lo[] = {-0.0, -0.0, -0.0, 0.0, -0.0, -0.0};
    for (size_t i = 0; i < 6; ++i) {
      CAPTURE(i);
      CHECK(same(args[2].values[i], hi[i]));
      CHECK(same(args[3].values[i], lo[i]));
    }
  }
}

TEST_CASE("max and min reductions and their clear=false combine follow the signed-zero rule") {
  // Rows: {-0, +0, -0}, {-0, -0, -0}, {+0, -0, NaN}, {NaN, NaN, NaN}.
  std::vector<Value> args = {Value::tensor({-0.0, 0.0, -0.0, -0.0, -0.0, -0.0, 0.0, -0.0, kNaN, kNaN, kNaN, kNaN}),
                             Value::tensor(std::vector<double>(4, 7.0)), Value::tensor(std::vector<double>(4, 7.0)),
                             Value::tensor(std::vector<double>(4, 7.0)), Value::tensor(std::vector<double>(4, 7.0))};
  Status st = testing::run_kernel(
      "kernel k(X: f32[4, 3], Hi: f32[4], Lo: f32[4], HiOld: f32[4], LoOld: f32[4]) grid(1) threads(4) {\n"
      "  alloc x: fragment f32[4, 3]\n"
      "  alloc r: fragment f32[4]\n"
      "  copy X, x\n"
      "  reduce x, r, op=max, axis=1\n"
      "  copy r, Hi\n"
      "  reduce x, r, op=min, axis=1\n"
      "  copy r, Lo\n"
      "  fill r, -0.0\n"
      "  reduce x, r, op=max, axis=1, clear=false\n"
      "  copy r, HiOld\n"
      "  fill r, 0.0\n"
      "  reduce x, r, op=min, axis=1, clear=false\n"
      "  copy r, LoOld\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  const double hi[] = {0.0, -0.0, 0.0, kNaN};
  const double lo[] = {-0.0, -0.0, -0.0, kNaN};
  const double hi_old[] = {0.0, -0.0, 0.0, -0.0};  // max(-0, row): the old -0 wins over an all-NaN row
  const double lo_old[] = {-0.0, -0.0, -0.0, 0.0};
  for (size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(same(args[1].values[i], hi[i]));
    CHECK(same(args[2].values[i], lo[i]));
    CHECK(same(args[3].values[i], hi_old[i]));
    CHECK(same(args[4].values[i], lo_old[i]));
  }
}

}  // namespace max_min_signed_zero_test
