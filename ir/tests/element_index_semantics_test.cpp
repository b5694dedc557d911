// Element indices (idx, ir/OpList.h) in the reference interpreter: idx(a) is the index
// along axis a of the element the map writes, from the destination's origin, whatever the
// operands' shapes (broadcast operands included); block indices and shape symbols combine
// with it into global positions; it prints and parses back as written.
#include <doctest/doctest.h>

#include <cmath>

#include "ir/Printer.h"
#include "ir/tests/RunUtil.h"

namespace element_index_semantics_test {

using namespace tegula;
using namespace tegula::ir;
using testing::Value;

TEST_CASE("idx(a) is the destination element's index along axis a") {
  std::vector<Value> args = {Value::tensor(std::vector<double>(3 * 5 * 2, -1))};
  Status st = testing::run_kernel(
      "kernel k(Z: i32[3, 5, 2]) grid(1) threads(32) {\n"
      "  alloc z: fragment i32[3, 5, 2]\n"
      "  map z = idx(0) * 100 + idx(1) * 10 + idx(2)\n"
      "  copy z, Z\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j)
      for (int l = 0; l < 2; ++l) CHECK(args[0].values[size_t((i * 5 + j) * 2 + l)] == i * 100 + j * 10 + l);
}

TEST_CASE("a causal mask over tiles of a larger tensor uses block indices and idx") {
  // 10x10 in 4x4 tiles: above the global diagonal -inf, else the input.
  const int M = 10;
  std::vector<double> x(M * M);
  for (int i = 0; i < M * M; ++i) x[size_t(i)] = 0.25 * i;
  std::vector<Value> args = {Value::tensor(x), Value::tensor(std::vector<double>(M * M, 7)), Value::scalar(M)};
  Status st = testing::run_kernel(
      "kernel k(X: f32[M, M], Z: f32[M, M]) grid(ceildiv(M, 4), ceildiv(M, 4)) threads(32) {\n"
      "  alloc x: shared f32[4, 4]\n"
      "  alloc z: fragment f32[4, 4]\n"
      "  copy X[by * 4, bx * 4], x\n"
      "  map z = select(bx * 4 + idx(1) > by * 4 + idx(0), -inf, x)\n"
      "  copy z, Z[by * 4, bx * 4]\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < M; ++c) {
      double got = args[1].values[size_t(r * M + c)];
      if (c > r)
        CHECK(got == -INFINITY);
      else
        CHECK(got == 0.25 * (r * M + c));
    }
}

TEST_CASE("the index is the destination's, also where an operand broadcasts") {
  // y is [1, 4]: its element is y[0, idx(1)], while idx(0) still counts the rows of z.
  std::vector<Value> args = {Value::tensor({1, 2, 3, 4}), Value::tensor(std::vector<double>(12, 0))};
  Status st = testing::run_kernel(
      "kernel k(Y: f32[1, 4], Z: f32[3, 4]) grid(1) threads(32) {\n"
      "  alloc y: shared f32[1, 4]\n"
      "  alloc z: shared f32[3, 4]\n"
      "  copy Y, y\n"
      "  map z = y * 10.0 + idx(0)\n"
      "  copy z, Z\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(args[1].values[size_t(i * 4 + j)] == (j + 1) * 10.0 + i);
}

TEST_CASE("a sequence tail is one map: indices past the length become a pad value") {
  std::vector<Value> args = {Value::tensor(std::vector<double>(16, 3)), Value::scalar(11)};
  Status st = testing::run_kernel(
      "kernel k(Z: f16[16], L: i32) grid(1) threads(32) {\n"
      "  alloc z: fragment f16[16]\n"
      "  copy Z, z\n"
      "  map z = select(idx(0) < L, z, 0.0)\n"
      "  copy z, Z\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (int i = 0; i < 16; ++i) CHECK(args[0].values[size_t(i)] == (i < 11 ? 3.0 : 0.0));
}

TEST_CASE("idx prints as written and parses back to the same tree") {
  const char* text =
      "kernel k(Z: f32[4, 4]) grid(1) threads(32) {\n"
      "  alloc z: fragment f32[4, 4]\n"
      "  map z = select(idx(1) > idx(0) + 1, -inf, cast<f32>(idx(0)))\n"
      "  copy z, Z\n"
      "}\n";
  auto k = parse_and_verify(text, "t.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  std::string printed = print_kernel(*k);
  CHECK(printed.find("idx(1) > idx(0) + 1") != std::string::npos);
  auto again = parse_and_verify(printed, "t2.tile");
  REQUIRE_MESSAGE(again.is_ok(), again.status().str());
  CHECK(print_kernel(*again) == printed);
  CHECK(same_expr(k->body.stmts[1].value(), again->body.stmts[1].value()));
  CHECK_FALSE(same_expr(elem_index(0), elem_index(1)));
  CHECK(same_expr(elem_index(1), elem_index(1)));
}

TEST_CASE("idx is an ordinary name where it is not called") {
  std::vector<Value> args = {Value::tensor(std::vector<double>(4, 0))};
  Status st = testing::run_kernel(
      "kernel k(Z: f32[4]) grid(1) threads(4) {\n"
      "  parallel idx in 4 {\n"
      "    store Z[idx] = idx * 2\n"
      "  }\n"
      "}\n",
      args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  for (int i = 0; i < 4; ++i) CHECK(args[0].values[size_t(i)] == 2.0 * i);
}

}  // namespace element_index_semantics_test
