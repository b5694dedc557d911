// scan (ir/OpList.h) in the float64 interpreter: running sums, maxima and minima along an
// axis, forward and reverse, inclusive and exclusive, starting from the carry and leaving
// the line's total in it, carried across the iterations of a loop; maxima follow
// maximumNumber (a NaN loses to a number, an all-NaN line stays NaN from a NaN start).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "ir/tests/RunUtil.h"

namespace scan_semantics_test {

using namespace tegula;
using namespace tegula::ir;
using testing::Value;

namespace {

/// Scan a 2x4 f32 tensor X along `axis` with `attrs`, from carry `start`; Y gets the scan,
/// C the carry afterwards.
Status scan_2x4(const std::string& attrs, int axis, double start, std::vector<Value>& args) {
  std::string carry = axis == 1 ? "[2, 1]" : "[1, 4]";
  std::string text = "kernel k(X: f32[2, 4], Y: f32[2, 4], C: f32" + carry + ") grid(1) threads(4) {\n"
                     "  alloc S: shared f32[2, 4]\n"
                     "  alloc T: shared f32[2, 4]\n"
                     "  alloc R: shared f32" + carry + "\n"
                     "  copy X, S\n"
                     "  fill R, " + std::to_string(start) + "\n"
                     "  scan S, T, R, axis=" + std::to_string(axis) + attrs + "\n"
                     "  copy T, Y\n"
                     "  copy R, C\n"
                     "}\n";
  return testing::run_kernel(text, args);
}

std::vector<Value> args_2x4(std::vector<double> x, size_t carry) {
  return {Value::tensor(std::move(x)), Value::tensor(std::vector<double>(8, -99)), Value::tensor(std::vector<double>(carry, -99))};
}

}  // namespace

TEST_CASE("an inclusive sum scan along the last axis, from a start value") {
  auto args = args_2x4({1, 2, 3, 4, 10, 20, 30, 40}, 2);
  Status st = scan_2x4(", op=sum", 1, 0.5, args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(args[1].values == std::vector<double>{1.5, 3.5, 6.5, 10.5, 10.5, 30.5, 60.5, 100.5});
  CHECK(args[2].values == std::vector<double>{10.5, 100.5});
}

TEST_CASE("an exclusive sum scan starts each line with the carry") {
  auto args = args_2x4({1, 2, 3, 4, 10, 20, 30, 40}, 2);
  Status st = scan_2x4(", op=sum, exclusive=true", 1, 0, args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(args[1].values == std::vector<double>{0, 1, 3, 6, 0, 10, 30, 60});
  CHECK(args[2].values == std::vector<double>{10, 100});
}

TEST_CASE("a reverse sum scan runs from the end of each line") {
  auto args = args_2x4({1, 2, 3, 4, 10, 20, 30, 40}, 2);
  Status st = scan_2x4(", op=sum, reverse=true", 1, 0, args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(args[1].values == std::vector<double>{10, 9, 7, 4, 100, 90, 70, 40});
  auto ex = args_2x4({1, 2, 3, 4, 10, 20, 30, 40}, 2);
  st = scan_2x4(", op=sum, reverse=true, exclusive=true", 1, 0, ex);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(ex[1].values == std::vector<double>{9, 7, 4, 0, 90, 70, 40, 0});
  CHECK(ex[2].values == std::vector<double>{10, 100});
}

TEST_CASE("a scan along axis 0 walks columns, one carry per column") {
  auto args = args_2x4({1, 2, 3, 4, 10, 20, 30, 40}, 4);
  Status st = scan_2x4(", op=sum", 0, 1, args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(args[1].values == std::vector<double>{2, 3, 4, 5, 12, 23, 34, 45});
  CHECK(args[2].values == std::vector<double>{12, 23, 34, 45});
}

TEST_CASE("max and min scans follow maximumNumber and minimumNumber") {
  const double nan = std::nan("");
  auto args = args_2x4({nan, 3, -INFINITY, 5, nan, nan, 1, nan}, 2);
  Status st = scan_2x4(", op=max", 1, nan, args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  const auto& y = args[1].values;
  CHECK(std::isnan(y[0]));  // NaN start, NaN element: no number yet
  CHECK(y[1] == 3);
  CHECK(y[2] == 3);
  CHECK(y[3] == 5);
  CHECK(std::isnan(y[4]));
  CHECK(std::isnan(y[5]));
  CHECK(y[6] == 1);
  CHECK(y[7] == 1);
  CHECK(args[2].values == std::vector<double>{5, 1});
  auto mins = args_2x4({4, -1, 7, -INFINITY, 2, 2, 0, 3}, 2);
  st = scan_2x4(", op=min", 1, INFINITY, mins);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(mins[1].values == std::vector<double>{4, -1, -1, -INFINITY, 2, 2, 0, 0});
  // An exclusive max from -inf: the first element is the start value.
  auto ex = args_2x4({4, -1, 7, 2, 2, 2, 0, 3}, 2);
  st = scan_2x4(", op=max, exclusive=true", 1, -INFINITY, ex);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(ex[1].values == std::vector<double>{-INFINITY, 4, 4, 7, -INFINITY, 2, 2, 2});
}

TEST_CASE("the carry runs across the iterations of a loop: a chunked cumulative sum") {
  // X[0..10) in chunks of 4 (the last one masked: padded with zeros): Y is the cumsum of X.
  std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<Value> args = {Value::tensor(x), Value::tensor(std::vector<double>(10, -1)), Value::tensor({-1})};
  Status st = testing::run_kernel(
      "kernel k(X: f32[10], Y: f32[10], Total: f32[1]) grid(1) threads(8) {\n"
      "  alloc S: shared f32[4]\n"
      "  alloc T: shared f32[4]\n"
      "  alloc R: shared f32[1]\n"
      "  fill R, 0.0\n"
      "  for c in 0 .. 3 {\n"
      "    copy X[c * 4], S\n"
      "    scan S, T, R, op=sum, axis=0\n"
      "    copy T, Y[c * 4]\n"
      "  }\n"
      "  copy R, Total\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(args[1].values == std::vector<double>{1, 3, 6, 10, 15, 21, 28, 36, 45, 55});
  CHECK(args[2].values == std::vector<double>{55});
}

TEST_CASE("the running value stays in float64; each element and the carry round once") {
  // f16 buffers: 2048 + 1 rounds to 2048 in f16, but the running value keeps the 1s, so
  // after two ones the element is 2050 (exactly representable).
  std::vector<Value> args = {Value::tensor({2048, 1, 1, 0}), Value::tensor({0, 0, 0, 0}), Value::tensor({0})};
  Status st = testing::run_kernel(
      "kernel k(X: f16[4], Y: f16[4], C: f16[1]) grid(1) threads(1) {\n"
      "  alloc S: shared f16[4]\n"
      "  alloc T: shared f16[4]\n"
      "  alloc R: shared f16[1]\n"
      "  copy X, S\n"
      "  fill R, 0.0\n"
      "  scan S, T, R, op=sum, axis=0\n"
      "  copy T, Y\n"
      "  copy R, C\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(args[1].values == std::vector<double>{2048, 2048, 2050, 2050});
  CHECK(args[2].values == std::vector<double>{2050});
}

}  // namespace scan_semantics_test
