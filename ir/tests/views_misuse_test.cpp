// Misused rank-dropping views (ir/OpList.h, copy) are refused by the verifier with their
// location and cause: more offsets than the tensor has axes, a whole tensor of higher rank
// without offsets, an explicit leading extent other than 1, a tile of higher rank than the
// tensor, and a view of a shared or fragment buffer.
#include <doctest/doctest.h>

#include <string>

#include "ir/Parser.h"

namespace views_misuse_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Bad {
  const char* what;
  const char* body;  ///< after the header's allocs, on line 5
  int column;
  const char* message;
};

// Q, O: global [B, H, S, 8]; V: global [8]; Qs: shared [4, 8]; F: fragment [4, 8]; T: shared [2, 4, 8].
const char* kHeader =
    "kernel k(Q: bf16[B, H, S, 8], O: f32[B, H, S, 8], V: f32[8]) grid(1) threads(32) {\n"
    "  alloc Qs: shared bf16[4, 8]\n"
    "  alloc F: fragment f32[4, 8]\n"
    "  alloc T: shared bf16[2, 4, 8]\n";

const Bad kCases[] = {
    {"more offsets than the tensor's rank", "  copy Q[0, 0, 0, 0, 0], Qs\n", 8,
     "'Q' has 4 dimensions, given 5 offsets"},
    {"a whole tensor of higher rank", "  copy Q, Qs\n", 8, "give all 4 offsets, one index for each leading axis"},
    {"a leading extent not 1 beside a 2-D tile", "  copy Q[0, 0, 0, 0], Qs, extent=[1, 2, 4, 8]\n", 27,
     "entry 1 is 2, and a leading axis of a view holds one index"},
    {"a view of a shared tile", "  copy T[0, 0, 0], F\n", 8,
     "only a global tensor can be read or written as a tile of lower rank"},
    {"a view of a fragment", "  alloc G: fragment f32[1, 4, 8]\n  copy G[0, 0, 0], Qs\n", 8,
     "only a global tensor can be read or written as a tile of lower rank"},
    {"a tile of higher rank than the tensor", "  copy Qs, V[0]\n", 12,
     "tile of rank 2 [4, 8] does not fit 'V' of rank 1"},
    {"mismatched trailing shapes", "  copy Q[0, 0, 0, 0], Qs, extent=[4, 16]\n", 23,
     "tile [4, 16] does not fit in 'Qs' [4, 8]"},
    {"atomic_add into a view of a shared tile", "  atomic_add F, T[0, 0, 0]\n", 0,
     "atomic_add adds into a global tensor"},
    {"a constant leading index outside the tensor", "  alloc W: shared f32[4, 8]\n  copy W, O[0, 0, 0, 9]\n", 22,
     "tile offset 9 is outside tensor 'O' (dimension 3 has size 8)"},
};

}  // namespace

TEST_CASE("misused rank-dropping views are refused with location and cause") {
  for (const Bad& c : kCases) {
    CAPTURE(c.what);
    auto k = parse_and_verify(std::string(kHeader) + c.body + "}\n", "bad.tile");
    REQUIRE_FALSE(k.is_ok());
    const Status& st = k.status();
    CHECK_MESSAGE(st.message().find(c.message) != std::string::npos, st.str());
    CHECK(st.loc().file == "bad.tile");
    CHECK(st.loc().line >= 5);
    if (c.column > 0) CHECK_MESSAGE(st.loc().column == c.column, st.str());
  }
}

}  // namespace views_misuse_test
