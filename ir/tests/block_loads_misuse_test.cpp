// Misused block-level loads (ir/OpList.h) are refused with their location and cause: a load
// of a float tensor, of a shared or fragment buffer, of a tensor the kernel writes (a read
// racing with the writes), with the wrong number or type of indices, in the grid, in a map,
// and as an offset into a shared or fragment tile, which nothing could keep inside it.
#include <doctest/doctest.h>

#include <string>

#include "ir/Parser.h"

namespace block_loads_misuse_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Bad {
  const char* what;
  const char* body;  // the kernel body, after HEAD
  int line, column;
  const char* message;
};

// Line 1: the header; the body starts on line 2.
#define HEAD "kernel k(X: f32[T, 8], Cu: i32[S], W: f32[S], Y: f32[T, 8]) grid(S - 1) threads(32) {\n"

const Bad kCases[] = {
    {"a float tensor", "  for j in 0 .. W[bx] {\n    barrier\n  }\n", 2, 17,
     "block-level load of 'W' (f32): loop bounds, offsets and conditions read integer tensors"},
    {"a cast does not hide a float tensor", "  for j in 0 .. cast<i32>(W[bx]) {\n    barrier\n  }\n", 2, 27,
     "block-level load of 'W' (f32)"},
    {"a shared buffer", "  alloc s: shared i32[4]\n  for j in 0 .. s[0] {\n    barrier\n  }\n", 3, 17,
     "block-level load of 's', a shared buffer: only elements of global tensors"},
    {"a fragment buffer", "  alloc f: fragment i32[4]\n  if f[bx % 4] > 0 {\n    barrier\n  }\n", 3, 6,
     "block-level load of 'f', a fragment buffer"},
    {"a tensor the kernel writes",
     "  alloc t: fragment f32[1, 8]\n  for j in Cu[bx] .. Cu[bx + 1] {\n    copy X[j, 0], t\n    copy t, Y[j, 0]\n  }\n"
     "  alloc c: fragment i32[1]\n  fill c, 0\n  copy c, Cu[bx]\n",
     3, 12, "block-level load of 'Cu', which this kernel writes"},
    {"too many indices", "  for j in Cu[bx, 0] .. 4 {\n    barrier\n  }\n", 2, 12, "'Cu' has 1 dimensions, indexed with 2"},
    {"a float index", "  if Cu[0.5] > 0 {\n    barrier\n  }\n", 2, 9, "index into 'Cu' must be an integer"},
    {"a loaded integer is no condition", "  if Cu[bx] {\n    barrier\n  }\n", 2, 6, "if needs a boolean condition, found an integer"},
    {"in a map", "  alloc t: fragment f32[1, 8]\n  fill t, 0.0\n  map t = t + Cu[bx]\n", 4, 15,
     "element load 'Cu[...]' cannot appear in a map"},
    {"an offset into a shared tile",
     "  alloc s: shared f32[16, 8]\n  copy X[0, 0], s[Cu[bx], 0], extent=[1, 8]\n", 3, 19,
     "offset into 's', a shared buffer, reads 'Cu[...]': only offsets into global tensors"},
    {"an offset into a fragment, nested", "  alloc f: fragment f32[16, 8]\n  copy f[2 * Cu[bx] + 1, 0], Y[0, 0], extent=[1, 8]\n",
     3, 14, "offset into 'f', a fragment buffer, reads 'Cu[...]'"},
};

}  // namespace

TEST_CASE("misused block-level loads are refused with location and cause") {
  for (const Bad& c : kCases) {
    CAPTURE(std::string(c.what));
    auto k = parse_and_verify(std::string(HEAD) + c.body + "}\n", "bad.tile");
    REQUIRE_FALSE(k.is_ok());
    const Status& st = k.status();
    CHECK_MESSAGE(st.message().find(c.message) != std::string::npos, st.str());
    CHECK(st.loc().file == "bad.tile");
    CHECK(st.loc().line == c.line);
    CHECK(st.loc().column == c.column);
  }
}

TEST_CASE("the grid cannot read a tensor: it is computed before launch") {
  auto k = parse_and_verify("kernel k(Cu: i32[S]) grid(Cu[0]) threads(32) {\n  barrier\n}\n", "bad.tile");
  REQUIRE_FALSE(k.is_ok());
  CHECK_MESSAGE(k.status().message().find("the grid cannot depend on the tensor element 'Cu[...]'") != std::string::npos,
                k.status().str());
  CHECK(k.status().loc().line == 1);
  CHECK(k.status().loc().column == 27);
}

TEST_CASE("inside a parallel loop a load of a written tensor or a float stays an element load") {
  // The block-level rules do not reach element-level code, which already read any buffer.
  auto k = parse_and_verify(std::string(HEAD) +
                                "  parallel i in 8 {\n    if Cu[bx] < 3 {\n      store Y[Cu[bx], i] = W[bx] + X[0, i]\n    }\n  }\n}\n",
                            "ok.tile");
  CHECK_MESSAGE(k.is_ok(), k.status().str());
}

}  // namespace block_loads_misuse_test
