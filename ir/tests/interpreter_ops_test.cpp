// Each op of the reference interpreter computes what ir/OpList.h says it does.
#include <doctest/doctest.h>

#include <cmath>

#include "ir/tests/RunUtil.h"

namespace interpreter_ops_test {

using namespace tegula;
using namespace tegula::ir;
using testing::Value;

TEST_CASE("copy is masked at the edges of a global tensor and pads reads") {
  // A is 5x3; a 4x4 tile at (4, 2) reads one real element and pads the rest.
  std::vector<double> a(15);
  for (int i = 0; i < 15; ++i) a[size_t(i)] = i;
  std::vector<Value> args = {Value::tensor(a), Value::tensor(std::vector<double>(16, -1))};
  Status st = testing::run_kernel(
      "kernel k(A: f32[5, 3], B: f32[4, 4]) grid(1) threads(1) {\n"
      "  alloc T: shared f32[4, 4]\n"
      "  copy A[4, 2], T, pad=7.5\n"
      "  copy T, B\n"
      "  copy T, A[3, 1]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  const auto& b = args[1].values;
  CHECK(b[0] == 14);
  for (int i = 1; i < 16; ++i) CHECK(b[size_t(i)] == 7.5);
  // The write-back of the 4x4 tile at (3, 1) only touches A[3..4][1..2].
  const auto& out = args[0].values;
  CHECK(out[3 * 3 + 1] == 14);
  CHECK(out[3 * 3 + 2] == 7.5);
  CHECK(out[4 * 3 + 1] == 7.5);
  CHECK(out[0] == 0);
  CHECK(out[3 * 3 + 0] == 9);
}

TEST_CASE("stores round to the destination dtype, saturating fp8") {
  std::vector<Value> args = {Value::tensor({0, 0, 0, 0}), Value::tensor({0, 0, 0, 0})};
  Status st = testing::run_kernel(
      "kernel k(H: f16[4], E: e4m3[4]) grid(1) threads(4) {\n"
      "  parallel i in 4 {\n"
      "    store H[i] = select(i == 0, 1.0 + 1e-4, select(i == 1, 70000.0, select(i == 2, 1.0 / 3.0, -inf)))\n"
      "    store E[i] = select(i == 0, 1000.0, select(i == 1, -inf, select(i == 2, 0.3, nan)))\n"
      "  }\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  CHECK(args[0].values[0] == 1.0);
  CHECK(std::isinf(args[0].values[1]));
  CHECK(args[0].values[2] == f16_to_double(f16_from_double(1.0 / 3.0)));
  CHECK(args[0].values[3] == -INFINITY);
  CHECK(args[1].values[0] == 448);
  CHECK(args[1].values[1] == -448);
  CHECK(args[1].values[2] == e4m3_to_double(e4m3_from_double(0.3)));
  CHECK(std::isnan(args[1].values[3]));
}

TEST_CASE("gemm honours transposes and accumulation") {
  // A = [[1,2],[3,4]] (2x2), B = [[5,6],[7,8]].
  std::vector<Value> args = {Value::tensor({1, 2, 3, 4}), Value::tensor({5, 6, 7, 8}), Value::tensor(std::vector<double>(16, 0))};
  Status st = testing::run_kernel(
      "kernel k(A: f32[2, 2], B: f32[2, 2], C: f32[4, 4]) grid(1) threads(32) {\n"
      "  alloc As: shared f32[2, 2]\n"
      "  alloc Bs: shared f32[2, 2]\n"
      "  alloc Acc: fragment f32[2, 2]\n"
      "  copy A, As\n"
      "  copy B, Bs\n"
      "  gemm As, Bs, Acc\n"
      "  copy Acc, C[0, 0]\n"
      "  gemm As, Bs, Acc, trans_a=true\n"
      "  copy Acc, C[0, 2]\n"
      "  gemm As, Bs, Acc, trans_b=true\n"
      "  copy Acc, C[2, 0]\n"
      "  gemm As, Bs, Acc, trans_a=true, trans_b=true, accumulate=true\n"
      "  copy Acc, C[2, 2]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  const auto& c = args[2].values;
  auto at = [&](int r, int col) { return c[size_t(r * 4 + col)]; };
  CHECK(at(0, 0) == 19); CHECK(at(0, 1) == 22); CHECK(at(1, 0) == 43); CHECK(at(1, 1) == 50);    // A B
  CHECK(at(0, 2) == 26); CHECK(at(0, 3) == 30); CHECK(at(1, 2) == 38); CHECK(at(1, 3) == 44);    // A^T B
  CHECK(at(2, 0) == 17); CHECK(at(2, 1) == 23); CHECK(at(3, 0) == 39); CHECK(at(3, 1) == 53);    // A B^T
  // accumulate: (A B^T) + A^T B^T = [[17+23, 23+31], [39+34, 53+46]]
  CHECK(at(2, 2) == 40); CHECK(at(2, 3) == 54); CHECK(at(3, 2) == 73); CHECK(at(3, 3) == 99);
}

TEST_CASE("integer gemm accumulates exactly into i32") {
  std::vector<double> a(64), b(64);
  for (int i = 0; i < 64; ++i) {
    a[size_t(i)] = (i % 17) - 8;
    b[size_t(i)] = (i % 13) - 6;
  }
  std::vector<Value> args = {Value::tensor(a), Value::tensor(b), Value::tensor(std::vector<double>(64, 0))};
  Status st = testing::run_kernel(
      "kernel k(A: i8[8, 8], B: i8[8, 8], C: i32[8, 8]) grid(1) threads(32) {\n"
      "  alloc As: shared i8[8, 8]\n"
      "  alloc Bs: shared i8[8, 8]\n"
      "  alloc Acc: fragment i32[8, 8]\n"
      "  copy A, As\n"
      "  copy B, Bs\n"
      "  gemm As, Bs, Acc\n"
      "  copy Acc, C\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      double want = 0;
      for (int k = 0; k < 8; ++k) want += a[size_t(i * 8 + k)] * b[size_t(k * 8 + j)];
      CHECK(args[2].values[size_t(i * 8 + j)] == want);
    }
}

TEST_CASE("reductions: sum, max, min, absmax, NaN losing to numbers, and clear=false") {
  std::vector<double> x = {1, -5, 3, 2, NAN, -1, NAN, NAN, NAN};
  std::vector<Value> args = {Value::tensor(x), Value::tensor(std::vector<double>(15, 0))};
  Status st = testing::run_kernel(
      "kernel k(X: f32[3, 3], Y: f32[5, 3]) grid(1) threads(32) {\n"
      "  alloc T: fragment f32[3, 3]\n"
      "  alloc R: fragment f32[3, 1]\n"
      "  copy X, T\n"
      "  reduce T, R, op=sum, axis=1\n"
      "  copy R, Y[0, 0]\n"
      "  reduce T, R, op=max, axis=1\n"
      "  copy R, Y[0, 1]\n"
      "  reduce T, R, op=min, axis=1\n"
      "  copy R, Y[0, 2]\n"
      "  reduce T, R, op=absmax, axis=1\n"
      "  copy R, Y[3, 0], extent=[2, 1]\n"
      "  reduce T, R, op=max, axis=1, clear=false\n"
      "  copy R, Y[3, 1], extent=[2, 1]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  auto y = [&](int r, int c) { return args[1].values[size_t(r * 3 + c)]; };
  CHECK(y(0, 0) == -1);
  CHECK(std::isnan(y(1, 0)));  // a sum with a NaN is NaN
  CHECK(y(0, 1) == 3);
  CHECK(y(1, 1) == 2);         // NaN loses to numbers
  CHECK(std::isnan(y(2, 1)));  // all NaN stays NaN
  CHECK(y(0, 2) == -5);
  CHECK(y(1, 2) == -1);
  CHECK(y(3, 0) == 5);
  CHECK(y(4, 0) == 2);
  CHECK(y(3, 1) == 5);  // max(absmax 5, max 3)
}

TEST_CASE("map broadcasts size-1 dimensions and reads its own destination") {
  std::vector<Value> args = {Value::tensor({1, 2, 3, 4, 5, 6}), Value::tensor(std::vector<double>(6, 0))};
  Status st = testing::run_kernel(
      "kernel k(X: f32[2, 3], Y: f32[2, 3]) grid(1) threads(32) {\n"
      "  alloc T: fragment f32[2, 3]\n"
      "  alloc R: fragment f32[2, 1]\n"
      "  alloc C: fragment f32[1, 3]\n"
      "  copy X, T\n"
      "  reduce T, R, op=sum, axis=1\n"
      "  reduce T, C, op=max, axis=0\n"
      "  map T = T * 10.0 - R + C\n"
      "  copy T, Y\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  // row sums 6, 15; column maxima 4, 5, 6
  std::vector<double> want = {10 - 6 + 4, 20 - 6 + 5, 30 - 6 + 6, 40 - 15 + 4, 50 - 15 + 5, 60 - 15 + 6};
  CHECK(args[1].values == want);
}

TEST_CASE("integer division and modulo floor toward negative infinity") {
  std::vector<Value> args = {Value::tensor(std::vector<double>(8, 0))};
  Status st = testing::run_kernel(
      "kernel k(Y: i32[8]) grid(1) threads(8) {\n"
      "  parallel i in 2 {\n"
      "    store Y[i * 4] = (i * 14 - 7) / 2\n"
      "    store Y[i * 4 + 1] = (i * 14 - 7) % 2\n"
      "    store Y[i * 4 + 2] = ceildiv(i * 14 - 7, 2)\n"
      "    store Y[i * 4 + 3] = (0 - 7) % (i * 2 - 3)\n"
      "  }\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  std::vector<double> want = {-4, 1, -3, -1, 3, 1, 4, 0};
  CHECK(args[0].values == want);
}

TEST_CASE("serial, pipelined and if control flow; the block index walks the grid") {
  std::vector<Value> args = {Value::tensor(std::vector<double>(6, 0)), Value::scalar(3)};
  Status st = testing::run_kernel(
      "kernel k(Y: f32[6], n: i32) grid(2, 3) threads(1) {\n"
      "  alloc acc: fragment f32[1]\n"
      "  fill acc, 0.0\n"
      "  for i in 0 .. n {\n"
      "    pipelined j in i .. n, stages=2 {\n"
      "      map acc = acc + 1.0\n"
      "    }\n"
      "  }\n"
      "  if bx == 1 {\n"
      "    map acc = acc * 10.0\n"
      "  } else {\n"
      "    map acc = acc + cast<f32>(by)\n"
      "  }\n"
      "  copy acc, Y[by * 2 + bx]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  // for n = 3 the inner loop runs 3 + 2 + 1 = 6 times.
  std::vector<double> want = {6, 60, 7, 60, 8, 60};
  CHECK(args[0].values == want);
}

TEST_CASE("atomic_add accumulates into global with masking") {
  std::vector<Value> args = {Value::tensor({1, 1, 1}), Value::scalar(3)};
  Status st = testing::run_kernel(
      "kernel k(Y: f32[N]) grid(4) threads(32) {\n"
      "  alloc T: fragment f32[4]\n"
      "  fill T, 0.5\n"
      "  atomic_add T, Y[0]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  std::vector<double> want = {3, 3, 3};
  CHECK(args[0].values == want);
}

TEST_CASE("elementwise functions, comparisons and select on special values") {
  std::vector<Value> args = {Value::tensor({0, -2, INFINITY, -INFINITY, NAN, 4}), Value::tensor(std::vector<double>(48, 0))};
  Status st = testing::run_kernel(
      "kernel k(X: f32[6], Y: f32[8, 6]) grid(1) threads(32) {\n"
      "  parallel i in 6 {\n"
      "    store Y[0, i] = exp(X[i])\n"
      "    store Y[1, i] = log(X[i])\n"
      "    store Y[2, i] = rsqrt(X[i])\n"
      "    store Y[3, i] = tanh(X[i])\n"
      "    store Y[4, i] = max(X[i], 1.0)\n"
      "    store Y[5, i] = select(X[i] != X[i], 9.0, abs(X[i]))\n"
      "    store Y[6, i] = exp2(sqrt(X[i]))\n"
      "    store Y[7, i] = cast<i8>(X[i] * 100.0)\n"
      "  }\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  auto y = [&](int r, int c) { return args[1].values[size_t(r * 6 + c)]; };
  CHECK(y(0, 0) == 1);
  CHECK(y(0, 3) == 0);
  CHECK(std::isinf(y(0, 2)));
  CHECK(y(1, 0) == -INFINITY);
  CHECK(std::isnan(y(1, 1)));
  CHECK(y(2, 5) == 0.5);
  CHECK(y(2, 0) == INFINITY);
  CHECK(y(3, 2) == 1);
  CHECK(y(4, 4) == 1);  // maxNum: NaN loses
  CHECK(y(5, 4) == 9);
  CHECK(y(5, 1) == 2);
  CHECK(y(6, 5) == 4);
  CHECK(y(7, 5) == 127);   // saturates
  CHECK(y(7, 3) == -128);
  CHECK(y(7, 4) == 0);     // NaN -> 0
}

}  // namespace interpreter_ops_test
