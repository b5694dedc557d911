// check_bijective() accepts exact covers of a tile and names the first coordinate that is
// outside the tile, reached twice, or never reached.
#include <doctest/doctest.h>

#include <cstdint>

#include "targets/Layout.h"

namespace layout_bijective_test {

using namespace tegula;

static Status check(const char* text, int64_t rows, int64_t cols, const Symbols& symbols = {}) {
  Result<Layout> l = Layout::parse(text);
  REQUIRE(l.is_ok());
  return l->check_bijective(symbols, rows, cols);
}

TEST_CASE("exact covers pass") {
  CHECK(check("((4,8),(2,2,2)):((32,1),(16,8,128))", 16, 16).is_ok());
  CHECK(check("((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))", 64, 256, {{"N", 256}}).is_ok());
  CHECK(check("((32,2),(4,4)):((32,4),(1,8))", 32, 32).is_ok());  // MFMA 32x32 accumulator
}

TEST_CASE("a doubly covered element names both coordinates") {
  Status s = check("(4,2):(1,1)", 5, 1);
  REQUIRE(!s.is_ok());
  CHECK(s.message() == "element (row 1, col 0) of the 5x1 tile is covered twice: by (t=0, v=1) and (t=1, v=0)");
}

TEST_CASE("a missing element is named with the size arithmetic") {
  Status s = check("(4,2):(1,8)", 8, 2);
  REQUIRE(!s.is_ok());
  CHECK(s.message() == "element (row 4, col 0) of the 8x2 tile is not covered (4 threads x 2 values = 8 for 16 elements)");
}

TEST_CASE("an index outside the tile is reported") {
  Status s = check("(4,2):(1,16)", 4, 4);
  REQUIRE(!s.is_ok());
  CHECK(s.message() == "(t=0, v=1) maps to index 16, outside the 4x4 tile");
}

TEST_CASE("only two-mode layouts are thread-value layouts") {
  Status s = check("(4,2,2):(1,4,8)", 4, 4);
  REQUIRE(!s.is_ok());
  CHECK(s.message() == "expected a (thread, value) layout with 2 modes, got 3");
}

TEST_CASE("binding errors pass through") {
  Status s = check("(4,N/8):(1,4)", 4, 4, {{"N", 12}});
  REQUIRE(!s.is_ok());
  CHECK(s.message() == "'N/8' is not an exact division (12/8)");
}

}  // namespace layout_bijective_test
