// A copy's pad stands for a read value that the store rounds to the destination: the
// generator rounds it once, on the host, to the destination dtype and spells it exactly in
// the value's representation (or in double). The H200 run found integer min reductions
// giving 0 (tegula.reduce.min.{i8,u8,i32}.*): their `pad=inf` was printed as
// `(int)-9223372036854775808` (the int64 conversion of infinity), which is 0 as an int, so
// every masked element joined the minimum as 0.
#include "plugins/cuda/tests/CudaTest.h"

namespace pad_rounds_to_destination_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

/// The conformance suite's row and column min reductions (conformance/cases/ReduceCases.cpp).
std::string min_kernel(const std::string& d, bool rows) {
  if (rows)
    return "kernel reduce_rows(X: " + d + "[M, N], Y: " + d + "[M]) grid(ceildiv(M, 8)) threads(128) {\n  alloc xs: fragment " + d +
           "[8, 64]\n  alloc acc: fragment " + d + "[8]\n  fill acc, inf\n  for j in 0 .. ceildiv(N, 64) {\n"
           "    copy X[bx * 8, j * 64], xs, pad=inf\n    reduce xs, acc, op=min, axis=1, clear=false\n  }\n  copy acc, Y[bx * 8]\n}\n";
  return "kernel reduce_cols(X: " + d + "[M, N], Y: " + d + "[N]) grid(ceildiv(N, 64)) threads(128) {\n  alloc xs: fragment " + d +
         "[8, 64]\n  alloc acc: fragment " + d + "[64]\n  fill acc, inf\n  for i in 0 .. ceildiv(M, 8) {\n"
         "    copy X[i * 8, bx * 64], xs, pad=inf\n    reduce xs, acc, op=min, axis=0, clear=false\n  }\n  copy acc, Y[bx * 64]\n}\n";
}

}  // namespace

TEST_CASE("an infinite pad into an integer fragment is the dtype's maximum, not 0") {
  TG_REQUIRE_NVRTC();
  struct Case {
    const char* dtype;
    const char* max;  ///< the pad and identity the generated C++ must hold
  };
  for (const Case& c : {Case{"i8", "(int)0x0000007fu"}, Case{"u8", "(int)0x000000ffu"}, Case{"i32", "(int)0x7fffffffu"}}) {
    for (bool rows : {true, false}) {
      CAPTURE(c.dtype);
      CAPTURE(rows);
      std::string text = min_kernel(c.dtype, rows);
      auto g = generate_for(text, "sm_90a");
      REQUIRE_MESSAGE(g.is_ok(), g.status().str());
      CHECK(!contains(g->source, "9223372036854775808"));
      CHECK(contains(g->source, std::string(": ") + c.max + ")"));  // the masked read's value
      CHECK(contains(g->source, std::string("const int fv0 = ") + c.max + ";"));  // the fill
      auto ptx = ptx_for(text, "sm_90a");
      CHECK_MESSAGE(ptx.is_ok(), ptx.status().str());
    }
  }
}

TEST_CASE("a pad rounds to the destination, never through the source's float") {
  TG_REQUIRE_NVRTC();
  // f32 source, f64 destination: 0.1 stays the double 0.1 (the interpreter stores the pad
  // itself, rounded to the destination).
  std::string text = "kernel p(X: f32[M], Y: f64[M]) grid(ceildiv(M, 64)) threads(64) {\n  alloc x: fragment f64[64]\n"
                     "  copy X[bx * 64], x, pad=0.1\n  copy x, Y[bx * 64]\n}\n";
  auto g = generate_for(text, "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  CHECK(contains(g->source, "__longlong_as_double(0x3fb999999999999aLL)"));
  CHECK(!contains(g->source, "__uint_as_float(0x3dcccccdu)"));  // float(0.1)
  auto ptx = ptx_for(text, "sm_90a");
  CHECK_MESSAGE(ptx.is_ok(), ptx.status().str());

  // i32 source into an f32 fragment with a pad no integer holds.
  std::string half = "kernel q(X: i32[M], Y: f32[M]) grid(ceildiv(M, 64)) threads(64) {\n  alloc x: fragment f32[64]\n"
                     "  copy X[bx * 64], x, pad=-inf\n  copy x, Y[bx * 64]\n}\n";
  auto h = generate_for(half, "sm_90a");
  REQUIRE_MESSAGE(h.is_ok(), h.status().str());
  CHECK(!contains(h->source, "9223372036854775808"));
  CHECK(contains(h->source, "__longlong_as_double(0xfff0000000000000LL)"));  // -inf, in double beside the int
}

}  // namespace pad_rounds_to_destination_test
