// Misused element indices (idx, ir/OpList.h) are refused with their location and cause:
// an axis outside the map destination's rank, a non-literal or negative axis, and idx
// anywhere but a map's expression (a store, an if, a loop bound, an offset, a fill, the grid).
#include <doctest/doctest.h>

#include <string>

#include "ir/Builder.h"
#include "ir/Parser.h"

namespace element_index_misuse_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Bad {
  const char* what;
  const char* text;
  int line, column;
  const char* message;
};

const Bad kCases[] = {
    {"axis past the rank",
     "kernel k(A: f32[4, 8]) grid(1) threads(32) {\n  alloc T: fragment f32[4, 8]\n  map T = idx(2)\n}\n", 3, 11,
     "idx(2) names axis 2, and the map's destination [4, 8] has axes 0..1"},
    {"axis past a rank-1 tile",
     "kernel k(A: f32[4]) grid(1) threads(32) {\n  alloc T: shared f32[16]\n  map T = 1.0 + idx(1)\n}\n", 3, 17,
     "idx(1) names axis 1"},
    {"negative axis", "kernel k(A: f32[4]) grid(1) threads(32) {\n  alloc T: shared f32[16]\n  map T = idx(-1)\n}\n", 3,
     15, "idx takes the axis as a non-negative integer literal"},
    {"axis not a literal",
     "kernel k(A: f32[4]) grid(1) threads(32) {\n  alloc T: shared f32[16]\n  map T = idx(bx)\n}\n", 3, 15,
     "idx takes the axis as a non-negative integer literal"},
    {"two arguments", "kernel k(A: f32[4]) grid(1) threads(32) {\n  alloc T: shared f32[16]\n  map T = idx(0, 1)\n}\n",
     3, 16, "expected ')'"},
    {"in a store", "kernel k(A: f32[4]) grid(1) threads(4) {\n  parallel i in 4 {\n    store A[i] = idx(0)\n  }\n}\n",
     3, 18, "inside a parallel loop the loop variables are the element's indices"},
    {"in a store index",
     "kernel k(A: f32[4]) grid(1) threads(4) {\n  parallel i in 4 {\n    store A[idx(0)] = 1.0\n  }\n}\n", 3, 13,
     "is the index of the element a map writes"},
    {"in an if", "kernel k(A: f32[4]) grid(1) threads(4) {\n  if idx(0) < 2 {\n    barrier\n  }\n}\n", 2, 6,
     "is the index of the element a map writes"},
    {"in a loop bound", "kernel k(A: f32[4]) grid(1) threads(4) {\n  for i in 0 .. idx(0) {\n    barrier\n  }\n}\n", 2,
     17, "is the index of the element a map writes"},
    {"in a tile offset",
     "kernel k(A: f32[64]) grid(1) threads(32) {\n  alloc T: shared f32[16]\n  copy A[idx(0)], T\n}\n", 3, 10,
     "is the index of the element a map writes"},
    {"in a fill", "kernel k(A: f32[4]) grid(1) threads(32) {\n  alloc T: shared f32[16]\n  fill T, idx(0)\n}\n", 3, 11,
     "is the index of the element a map writes"},
    {"in the grid", "kernel k(A: f32[4]) grid(idx(0)) threads(32) {\n  barrier\n}\n", 1, 26,
     "is the index of the element a map writes"},
};

}  // namespace

TEST_CASE("misused element indices are refused with location and cause") {
  for (const Bad& c : kCases) {
    CAPTURE(c.what);
    auto k = parse_and_verify(c.text, "bad.tile");
    REQUIRE_FALSE(k.is_ok());
    const Status& st = k.status();
    CHECK_MESSAGE(st.message().find(c.message) != std::string::npos, st.str());
    CHECK(st.loc().file == "bad.tile");
    CHECK(st.loc().line == c.line);
    CHECK(st.loc().column == c.column);
  }
}

TEST_CASE("an element index built past the rank is refused by the verifier, not only the parser") {
  // The C++ builder has no parser in front of it: the verifier checks the axis itself.
  KernelBuilder kb("k");
  kb.tensor("A", DType::F32, {int_imm(4)});
  kb.grid({int_imm(1)});
  kb.threads(32);
  BufferRef t = kb.alloc("T", Scope::Shared, DType::F32, {16});
  kb.map(t, elem_index(-1));
  auto k = kb.build();
  REQUIRE_FALSE(k.is_ok());
  CHECK_MESSAGE(k.status().message().find("idx(-1) names axis -1") != std::string::npos, k.status().str());
}

}  // namespace element_index_misuse_test
