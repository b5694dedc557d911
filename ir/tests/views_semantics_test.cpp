// Rank-dropping views (ir/OpList.h, copy) in the reference interpreter: a 4-D and a 3-D
// tensor read and written as 2-D tiles of one head, masked per axis (the sequence tail of
// a head, and a leading index past the tensor, neither read nor written), by copy in both
// directions, fill and atomic_add with an extent of the tile's rank, and a global-to-global
// copy between tensors of different rank.
#include <doctest/doctest.h>

#include <vector>

#include "ir/tests/RunUtil.h"

namespace views_semantics_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

// Q: [2, 3, 5, 8] (B, H, S, D); tiles of 4 rows along S; by runs one past H.
constexpr int kB = 2, kH = 3, kS = 5, kD = 8;

double q_value(int b, int h, int s, int d) { return 1 + b * 1000 + h * 100 + s * 10 + d; }

std::vector<double> q_tensor() {
  std::vector<double> q;
  for (int b = 0; b < kB; ++b)
    for (int h = 0; h < kH; ++h)
      for (int s = 0; s < kS; ++s)
        for (int d = 0; d < kD; ++d) q.push_back(q_value(b, h, s, d));
  return q;
}

}  // namespace

TEST_CASE("a 4-D tensor is read and written as 2-D tiles of one head, masked per axis") {
  // P holds every tile as read (4 heads of 8 rows): pad where the head or the row is past Q.
  const char* text =
      "kernel v(Q: f32[2, 3, 5, 8], O: f32[2, 3, 5, 8], P: f32[2, 4, 8, 8]) grid(2, 4, 2) threads(32) {\n"
      "  alloc Qs: shared f32[4, 8]\n"
      "  alloc F: fragment f32[4, 8]\n"
      "  copy Q[bz, by, bx * 4, 0], Qs, pad=-1.0\n"
      "  copy Qs, P[bz, by, bx * 4, 0]\n"
      "  copy Q[bz, by, bx * 4, 0], F\n"
      "  map F = F * 2.0\n"
      "  copy F, O[bz, by, bx * 4, 0]\n"
      "}\n";
  std::vector<Value> args = {Value::tensor(q_tensor()), Value::tensor(std::vector<double>(kB * kH * kS * kD, 0)),
                             Value::tensor(std::vector<double>(kB * 4 * 8 * kD, 0))};
  REQUIRE(run_kernel(text, args).is_ok());
  for (int b = 0; b < kB; ++b)
    for (int h = 0; h < 4; ++h)
      for (int s = 0; s < 8; ++s)
        for (int d = 0; d < kD; ++d) {
          double want = h < kH && s < kS ? q_value(b, h, s, d) : -1.0;
          CHECK(args[2].values[size_t(((b * 4 + h) * 8 + s) * kD + d)] == want);
        }
  // Heads past H and rows past S were not written; the rest is exactly 2 * Q.
  for (size_t i = 0; i < args[1].values.size(); ++i) CHECK(args[1].values[i] == 2 * args[0].values[i]);
}

TEST_CASE("fill, atomic_add and global-to-global copies take an extent of the tile's rank") {
  const char* text =
      "kernel v(Q: f32[2, 3, 5, 8], O: f32[2, 3, 5, 8], A: f32[3, 5, 8], Y: f32[5, 8]) grid(2, 4, 2) threads(32) {\n"
      "  alloc Qs: shared f32[4, 8]\n"
      "  fill O[bz, by, bx * 4, 0], 7.0, extent=[4, 8]\n"
      "  copy Q[bz, by, bx * 4, 0], Qs\n"
      "  atomic_add Qs, A[by, bx * 4, 0]\n"
      "  if bz == 1 && by == 2 {\n"
      "    copy Q[bz, by, bx * 4, 0], Y[bx * 4, 0], extent=[1, 1, 4, 8]\n"
      "  }\n"
      "}\n";
  std::vector<Value> args = {Value::tensor(q_tensor()), Value::tensor(std::vector<double>(kB * kH * kS * kD, 0)),
                             Value::tensor(std::vector<double>(kH * kS * kD, 0)),
                             Value::tensor(std::vector<double>(kS * kD, 0))};
  REQUIRE(run_kernel(text, args).is_ok());
  for (double o : args[1].values) CHECK(o == 7.0);
  for (int h = 0; h < kH; ++h)
    for (int s = 0; s < kS; ++s)
      for (int d = 0; d < kD; ++d) {
        CHECK(args[2].values[size_t((h * kS + s) * kD + d)] == q_value(0, h, s, d) + q_value(1, h, s, d));
        if (h == 2) CHECK(args[3].values[size_t(s * kD + d)] == q_value(1, 2, s, d));
      }
}

}  // namespace views_semantics_test
