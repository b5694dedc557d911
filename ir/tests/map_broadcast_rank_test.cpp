// Right-aligned broadcasting in map (ir/OpList.h, numpy's rule): an operand of lower rank
// than the destination broadcasts along the leading axes, shared and fragment operands
// alike; a size-1 axis still broadcasts within the aligned axes. Misuse: a higher-rank
// operand, and trailing axes that do not match, are refused at the operand.
#include <doctest/doctest.h>

#include <vector>

#include "ir/tests/RunUtil.h"

namespace map_broadcast_rank_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

TEST_CASE("a 1-D tile broadcasts along the rows of a 2-D map, and a 2-D one along a 3-D map's first axis") {
  const char* text =
      "kernel b(X: f32[4, 8], W: f32[8], V: f32[3, 8], Y: f32[4, 8], Z: f32[2, 3, 8]) grid(1) threads(32) {\n"
      "  alloc x: fragment f32[4, 8]\n"
      "  alloc w: shared f32[8]\n"
      "  alloc wf: fragment f32[8]\n"
      "  alloc v: fragment f32[3, 8]\n"
      "  alloc c: fragment f32[1, 8]\n"
      "  alloc z: fragment f32[2, 3, 8]\n"
      "  copy X, x\n  copy W, w\n  copy W, wf\n  copy V, v\n"
      "  copy V[0, 0], c\n"
      "  map x = x * w + wf - c\n"
      "  copy x, Y\n"
      "  fill z, 1.0\n"
      "  map z = z + v\n"
      "  copy z, Z\n"
      "}\n";
  std::vector<double> x(32), w(8), v(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = double(i) - 5;
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.5 * double(i) + 1;
  for (size_t i = 0; i < v.size(); ++i) v[i] = double(i) * 3;
  std::vector<Value> args = {Value::tensor(x), Value::tensor(w), Value::tensor(v),
                             Value::tensor(std::vector<double>(32, 0)), Value::tensor(std::vector<double>(48, 0))};
  REQUIRE(run_kernel(text, args).is_ok());
  for (size_t r = 0; r < 4; ++r)
    for (size_t j = 0; j < 8; ++j) CHECK(args[3].values[r * 8 + j] == x[r * 8 + j] * w[j] + w[j] - v[j]);
  for (size_t b = 0; b < 2; ++b)
    for (size_t i = 0; i < 24; ++i) CHECK(args[4].values[b * 24 + i] == 1.0 + v[i]);
}

TEST_CASE("map operands that do not broadcast at the trailing axes are refused with their location") {
  struct Bad {
    const char* body;
    int column;
    const char* message;
  };
  const Bad cases[] = {
      {"  alloc w: shared f32[4]\n  map x = x * w\n", 15,
       "does not broadcast to the destination [4, 8] (its dimension 0 against the destination's 1"},
      {"  alloc w: shared f32[2, 4, 8]\n  map x = x + w\n", 15, "has rank 3, more than the destination [4, 8]"},
      {"  alloc w: fragment f32[3, 8]\n  map x = w\n", 11,
       "does not broadcast to the destination [4, 8] (its dimension 0 against the destination's 0"},
  };
  for (const Bad& c : cases) {
    CAPTURE(c.body);
    std::string text =
        std::string("kernel b(X: f32[4, 8]) grid(1) threads(32) {\n  alloc x: fragment f32[4, 8]\n") + c.body + "}\n";
    auto k = parse_and_verify(text, "bad.tile");
    REQUIRE_FALSE(k.is_ok());
    CHECK_MESSAGE(k.status().message().find(c.message) != std::string::npos, k.status().str());
    CHECK(k.status().loc().line == 4);
    CHECK_MESSAGE(k.status().loc().column == c.column, k.status().str());
  }
}

}  // namespace map_broadcast_rank_test
