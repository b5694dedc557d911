// The interpreter reports bad accesses and bad launches as errors with a location, never a
// crash.
#include <doctest/doctest.h>

#include <cmath>

#include "ir/tests/RunUtil.h"

namespace interpreter_errors_test {

using namespace tegula;
using namespace tegula::ir;
using testing::Value;

TEST_CASE("an element load outside a buffer is an error at the load") {
  std::vector<Value> args = {Value::tensor(std::vector<double>(4, 0))};
  Status st = testing::run_kernel(
      "kernel k(Y: f32[4]) grid(1) threads(4) {\n"
      "  parallel i in 4 {\n"
      "    store Y[i] = Y[i + 1]\n"
      "  }\n"
      "}\n",
      args);
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.loc().line == 3);
  CHECK(st.loc().column == 18);
  CHECK(st.message().find("index 4 is outside 'Y'") != std::string::npos);
}

TEST_CASE("a dynamic sub-tile outside a shared buffer is an error") {
  std::vector<Value> args = {Value::tensor(std::vector<double>(64, 0)), Value::scalar(9)};
  Status st = testing::run_kernel(
      "kernel k(A: f32[64], n: i32) grid(1) threads(4) {\n"
      "  alloc T: shared f32[16]\n"
      "  alloc F: fragment f32[8]\n"
      "  copy T[n], F\n"
      "}\n",
      args);
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.loc().line == 4);
  CHECK(st.message().find("outside 'T'") != std::string::npos);
}

TEST_CASE("integer division by a zero that only appears at run time") {
  std::vector<Value> args = {Value::tensor(std::vector<double>(4, 0)), Value::scalar(0)};
  Status st = testing::run_kernel(
      "kernel k(Y: i32[4], n: i32) grid(1) threads(4) {\n"
      "  parallel i in 4 {\n"
      "    store Y[i] = i / n\n"
      "  }\n"
      "}\n",
      args);
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.message().find("division by zero") != std::string::npos);
  CHECK(st.loc().line == 3);
}

TEST_CASE("wrong argument lists are rejected before running") {
  auto k = parse_and_verify("kernel k(A: f32[N], s: f32) grid(1) threads(1) {\n}\n");
  REQUIRE(k.is_ok());
  std::vector<float> buf(4);
  // too few arguments
  Status st = interpret(*k, {Arg::tensor(buf.data(), 16)});
  CHECK(st.message().find("takes 3 arguments") != std::string::npos);
  // a scalar where a tensor belongs
  st = interpret(*k, {Arg::number(1), Arg::number(1), Arg::integer(4)});
  CHECK(st.message().find("is a tensor, given a scalar") != std::string::npos);
  // a buffer too small for the bound shape
  st = interpret(*k, {Arg::tensor(buf.data(), 16), Arg::number(1), Arg::integer(5)});
  CHECK(st.message().find("needs 20 bytes, given 16") != std::string::npos);
  // a negative symbol
  st = interpret(*k, {Arg::tensor(buf.data(), 16), Arg::number(1), Arg::integer(-1)});
  CHECK(st.message().find("negative") != std::string::npos);
  // a null tensor pointer with a non-zero size
  st = interpret(*k, {Arg::tensor(nullptr, 0), Arg::number(1), Arg::integer(4)});
  CHECK_FALSE(st.is_ok());
}

TEST_CASE("a negative grid is an error; an empty grid runs nothing") {
  auto k = parse_and_verify(
      "kernel k(A: f32[N]) grid(N - 2) threads(1) {\n"
      "  alloc T: fragment f32[1]\n"
      "  fill T, 1.0\n"
      "  copy T, A[bx]\n"
      "}\n");
  REQUIRE(k.is_ok());
  std::vector<float> buf(4, 0.f);
  Status st = interpret(*k, {Arg::tensor(buf.data(), 16), Arg::integer(1)});
  CHECK(st.message().find("negative") != std::string::npos);
  st = interpret(*k, {Arg::tensor(buf.data(), 16), Arg::integer(2)});
  CHECK(st.is_ok());
  CHECK(buf[0] == 0.f);
}

TEST_CASE("a poisoned (never written) fragment reads as NaN") {
  std::vector<Value> args = {Value::tensor({5, 5})};
  Status st = testing::run_kernel(
      "kernel k(Y: f32[2]) grid(1) threads(1) {\n"
      "  alloc T: fragment f32[2]\n"
      "  copy T, Y\n"
      "}\n",
      args);
  REQUIRE(st.is_ok());
  CHECK(std::isnan(args[0].values[0]));
}

}  // namespace interpreter_errors_test
