// Malformed kernels: each is rejected with its own message at the right file:line:column.
#include <doctest/doctest.h>

#include <string>

#include "ir/Parser.h"

namespace malformed_input_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Case {
  const char* name;
  const char* text;
  int line;
  int column;
  const char* message;  // a substring of the error message
};

// A valid kernel to mutate: line 1 is the header, the body starts on line 2.
#define HDR "kernel k(A: f32[M, N], B: f32[M, N]) grid(ceildiv(M, 16)) threads(128) {\n"

const Case kCases[] = {
    // --- syntax ---------------------------------------------------------------------------
    {"empty input", "", 1, 1, "expected 'kernel'"},
    {"not a kernel", "kernal k() grid(1) threads(1) {}", 1, 1, "expected 'kernel', found 'kernal'"},
    {"missing grid", "kernel k() threads(1) {}", 1, 12, "expected 'grid'"},
    {"thread count not an integer", "kernel k() grid(1) threads(n) {}", 1, 28, "thread count"},
    {"unknown dtype", "kernel k(A: f12[4]) grid(1) threads(1) {}", 1, 13, "unknown dtype 'f12'"},
    {"unknown op", HDR "  copi A, B\n}\n", 2, 3, "unknown op 'copi'"},
    {"unterminated block", HDR "  barrier\n", 3, 1, "expected '}' before end of input"},
    {"stray character", HDR "  barrier $\n}\n", 2, 11, "unexpected character '$'"},
    {"single ampersand on booleans", HDR "  parallel i in 4 {\n    if (i > 0) & (i < 3) {\n    }\n  }\n}\n", 3, 16, "did you mean '&&'"},
    {"unknown scope", HDR "  alloc T: global_mem f32[4]\n}\n", 2, 12, "unknown scope 'global_mem'"},
    {"missing comma", HDR "  alloc T: shared f32[16, 16]\n  copy A T\n}\n", 3, 10, "expected ','"},
    {"unknown function", HDR "  alloc T: shared f32[16, 16]\n  map T = sin(T)\n}\n", 3, 11, "unknown function 'sin'"},
    {"wrong argument count", HDR "  alloc T: shared f32[16, 16]\n  map T = max(T)\n}\n", 3, 16, "max takes 2 arguments, found 1"},
    {"attribute twice", HDR "  alloc T: shared f32[16, 16]\n  copy A[0, 0], T, pad=0.0, pad=1.0\n}\n", 3, 29, "attribute 'pad' given twice"},
    {"number glued to a name", HDR "  alloc T: shared f32[16x, 16]\n}\n", 2, 23, "a number must not be followed by a letter"},
    {"unterminated string", HDR "  barrier, note=\"abc\n}\n", 2, 17, "unterminated string"},
    {"extents and variables disagree", HDR "  parallel (i, j) in (4) {\n  }\n}\n", 2, 3, "expected 2 extents"},
    {"trailing input", "kernel k() grid(1) threads(1) {} }", 1, 34, "expected end of input"},
    {"integer literal out of range", HDR "  fill A[99999999999999999999, 0], 0.0\n}\n", 2, 10, "integer literal out of range"},
    // --- verification -------------------------------------------------------------------
    {"undefined buffer", HDR "  alloc T: shared f32[16, 16]\n  copy A[bx * 16, 0], Q\n}\n", 3, 23, "undefined buffer 'Q'"},
    {"undefined name", HDR "  alloc T: shared f32[16, 16]\n  copy A[bx * 16, j], T\n}\n", 3, 19, "undefined name 'j'"},
    {"gemm into global", HDR "  alloc T: shared f32[16, 16]\n  gemm T, T, B\n}\n", 3, 14, "accumulates into 'B', a global tensor"},
    {"gemm accumulator in shared", HDR "  alloc T: shared f32[16, 16]\n  gemm T, T, T\n}\n", 3, 14, "must be a fragment, not shared"},
    {"gemm operands do not fit", HDR "  alloc P: shared f16[16, 32]\n  alloc Q: shared f16[16, 16]\n  alloc C: fragment f32[16, 16]\n  gemm P, Q, C\n}\n",
     5, 3, "gemm operands do not fit: A [16, 32] has K = 32, B [16, 16] has K = 16"},
    {"gemm accumulator shape", HDR "  alloc P: shared f16[16, 32]\n  alloc Q: shared f16[32, 8]\n  alloc C: fragment f32[16, 16]\n  gemm P, Q, C\n}\n",
     5, 14, "must be [16, 8]"},
    {"gemm int into float", HDR "  alloc P: shared i8[16, 32]\n  alloc Q: shared i8[32, 16]\n  alloc C: fragment f32[16, 16]\n  gemm P, Q, C\n}\n",
     5, 14, "an integer gemm accumulates into i32"},
    {"gemm operand from global", HDR "  alloc C: fragment f32[16, 16]\n  gemm A, A, C\n}\n", 3, 8, "is a global tensor; copy it"},
    {"static tile offset outside", "kernel k(A: f32[64, 64]) grid(1) threads(32) {\n  alloc T: shared f32[16, 16]\n  copy A[64, 0], T\n}\n",
     3, 10, "tile offset 64 is outside tensor 'A' (dimension 0 has size 64)"},
    {"negative tile offset", HDR "  alloc T: shared f32[16, 16]\n  copy A[0 - 16, 0], T\n}\n", 3, 12, "tile offset -16 is outside tensor 'A'"},
    {"shared sub-tile outside", HDR "  alloc T: shared f32[16, 16]\n  alloc F: fragment f32[8, 8]\n  copy T[12, 0], F\n}\n", 4, 10,
     "tile [8, 8] at offset 12 in dimension 0 is outside 'T' [16, 16]"},
    // (A global tensor of higher rank is a view, ir/OpList.h; a shared one is not.)
    {"copy rank mismatch", HDR "  alloc T: shared f32[16]\n  alloc U: shared f32[2, 16]\n  copy U[0, 0], T\n}\n", 4, 8, "rank"},
    {"copy without extent", HDR "  copy A[0, 0], B[0, 0]\n}\n", 2, 3, "copy needs an extent"},
    {"reduce shape", HDR "  alloc T: fragment f32[16, 32]\n  alloc R: fragment f32[32]\n  reduce T, R, op=sum, axis=1\n}\n", 4, 13,
     "must be [16, 1] or [16] to reduce [16, 32] along axis 1"},
    {"reduce axis", HDR "  alloc T: fragment f32[16, 32]\n  alloc R: fragment f32[16]\n  reduce T, R, op=sum, axis=2\n}\n", 4, 24,
     "axis 2 is outside 0..1"},
    {"reduce op", HDR "  alloc T: fragment f32[16, 32]\n  alloc R: fragment f32[16]\n  reduce T, R, op=mean, axis=1\n}\n", 4, 16,
     "unknown reduction 'mean'"},
    {"reduce without op", HDR "  alloc T: fragment f32[16, 32]\n  alloc R: fragment f32[16]\n  reduce T, R, axis=1\n}\n", 4, 3,
     "needs the attribute 'op'"},
    {"map does not broadcast", HDR "  alloc T: fragment f32[16, 32]\n  alloc R: fragment f32[16, 2]\n  map T = T - R\n}\n", 4, 15,
     "does not broadcast to the destination [16, 32] (its dimension 1"},
    {"map of a global", HDR "  alloc T: fragment f32[16, 32]\n  map T = A\n}\n", 3, 11, "is a global tensor"},
    {"store outside parallel", HDR "  alloc T: fragment f32[16, 32]\n  store T[0, 0] = 1.0\n}\n", 3, 3, "only allowed inside a parallel loop"},
    {"tile op inside parallel", HDR "  alloc T: fragment f32[16, 32]\n  parallel i in 16 {\n    fill T, 0.0\n  }\n}\n", 4, 5,
     "cannot appear inside a parallel loop"},
    {"nested parallel", HDR "  parallel i in 16 {\n    parallel j in 4 {\n    }\n  }\n}\n", 3, 5, "parallel loops cannot nest"},
    {"local outside parallel", HDR "  alloc t: local f32[4]\n}\n", 2, 3, "must be allocated inside a parallel loop"},
    {"shared inside a loop", HDR "  for i in 0 .. 4 {\n    alloc T: shared f32[4]\n  }\n}\n", 3, 5, "at the top of the kernel body"},
    {"local used outside its loop", HDR "  parallel i in 4 {\n    alloc t: local f32[1]\n  }\n  parallel j in 4 {\n    store t[0] = 1.0\n  }\n}\n", 6, 11,
     "undefined buffer 't'"},
    {"element index count", HDR "  parallel i in 4 {\n    store A[i] = 1.0\n  }\n}\n", 3, 11, "'A' has 2 dimensions, indexed with 1"},
    {"static element index outside", "kernel k(A: f32[4]) grid(1) threads(4) {\n  parallel i in 4 {\n    store A[4] = 1.0\n  }\n}\n", 3, 13,
     "index 4 is outside 'A'"},
    {"redefinition", HDR "  alloc T: shared f32[4]\n  alloc T: shared f32[4]\n}\n", 3, 3, "'T' is already defined"},
    {"reserved name", HDR "  alloc exp: shared f32[4]\n}\n", 2, 3, "'exp' is a reserved name"},
    {"grid uses the block index", "kernel k(A: f32[4]) grid(bx + 1) threads(4) {\n}\n", 1, 26, "cannot depend on the block index"},
    {"too many threads", "kernel k(A: f32[4]) grid(1) threads(4096) {\n}\n", 1, 1, "threads(4096) is outside 1..1024"},
    {"if on a number", HDR "  if bx + 1 {\n  }\n}\n", 2, 9, "if needs a boolean condition"},
    {"modulo of floats", HDR "  parallel i in 4 {\n    store A[i, 0] = A[i, 0] % 2.0\n  }\n}\n", 3, 29, "'%' needs integer operands"},
    {"float index", HDR "  parallel i in 4 {\n    store A[i, 0.5] = 1.0\n  }\n}\n", 3, 16, "index into 'A' must be an integer"},
    {"boolean arithmetic", HDR "  parallel i in 4 {\n    store A[i, 0] = (i < 2) + 1.0\n  }\n}\n", 3, 24, "'+' needs a number, found a boolean"},
    {"element load at block level", HDR "  alloc T: shared f32[4]\n  for i in 0 .. T[0] {\n  }\n}\n", 3, 17, "block-level load of 'T', a shared buffer"},
    {"division by constant zero", HDR "  alloc T: shared f32[16, 16]\n  copy A[bx / 0, 0], T\n}\n", 3, 15, "division by zero"},
    {"unknown attribute", HDR "  alloc T: shared f32[16, 16]\n  copy A[0, 0], T, padding=1.0\n}\n", 3, 20, "'copy' has no attribute 'padding'"},
    {"attribute of the wrong type", HDR "  alloc T: shared f32[16, 16]\n  alloc C: fragment f32[16, 16]\n  gemm T, T, C, accumulate=1\n}\n", 4, 17,
     "must be true or false"},
    {"lowering attribute in source", HDR "  barrier, plan.vec=4\n}\n", 2, 12, "lowering annotation"},
    {"pipelined stages", HDR "  pipelined i in 0 .. 4, stages=0 {\n  }\n}\n", 2, 26, "stages must be 1 to 16"},
    {"zero dimension", HDR "  alloc T: shared f32[0, 4]\n}\n", 2, 3, "must be positive"},
    {"huge buffer", HDR "  alloc T: shared f32[65536, 65536]\n}\n", 2, 3, "too large"},
    {"parallel extent not constant", HDR "  parallel i in M {\n  }\n}\n", 2, 17, "extents must be constant integers"},
    {"parameter used as symbol", "kernel k(A: f32[n], n: i32) grid(1) threads(4) {\n}\n", 1, 17, "cannot also be a shape symbol"},
    {"atomic into shared", HDR "  alloc T: shared f32[16, 16]\n  alloc F: fragment f32[16, 16]\n  atomic_add F, T\n}\n", 4, 17,
     "atomic_add adds into a global tensor"},
};

}  // namespace

TEST_CASE("malformed kernels are rejected with location and cause") {
  for (const Case& c : kCases) {
    CAPTURE(c.name);
    auto k = parse_and_verify(c.text, "bad.tile");
    REQUIRE_FALSE(k.is_ok());
    const Status& st = k.status();
    INFO(st.str());
    CHECK(st.loc().file == "bad.tile");
    CHECK(st.loc().line == c.line);
    CHECK(st.loc().column == c.column);
    CHECK(st.message().find(c.message) != std::string::npos);
  }
}

TEST_CASE("there are at least 30 malformed cases") { CHECK(sizeof(kCases) / sizeof(kCases[0]) >= 30); }

}  // namespace malformed_input_test
