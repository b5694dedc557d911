// Literal values stored by fill, map and store round once, on the host, from the literal's
// full double to the destination dtype (core/DType.h), and the generated C++ spells the
// result bit for bit. The H200 run found f64 fills passing through float: DBL_MAX became inf,
// the smallest subnormal 0, 0.1 lost 29 bits (tegula.fill.fragment.f64.*).
#include "plugins/cuda/tests/CudaTest.h"

#include <cstdio>
#include <limits>

#include "plugins/cuda/codegen/Emitter.h"

namespace literals_round_once_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

/// The value a literal of the generator denotes, as the CUDA compiler reads it; false when
/// the text is not one of the generator's exact literal forms.
bool parse_literal(const std::string& text, double* out) {
  unsigned long long bits64 = 0;
  unsigned bits32 = 0;
  if (std::sscanf(text.c_str(), "__longlong_as_double(0x%llxLL)", &bits64) == 1) {
    std::memcpy(out, &bits64, 8);
    return true;
  }
  if (std::sscanf(text.c_str(), "__uint_as_float(0x%xu)", &bits32) == 1) {
    float f;
    std::memcpy(&f, &bits32, 4);
    *out = f;
    return true;
  }
  if (std::sscanf(text.c_str(), "(int)0x%xu", &bits32) == 1) {
    *out = double(int32_t(bits32));
    return true;
  }
  if (text == "true" || text == "false") {
    *out = text == "true" ? 1 : 0;
    return true;
  }
  return false;
}

bool same_bits(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, 8) == 0;
}

const std::string kFillKernel =
    "kernel fill_tile(Y: f64[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n"
    "  alloc t: fragment f64[16, 64]\n  fill t, VALUE\n  copy t, Y[by * 16, bx * 64]\n}\n";

std::string with_value(std::string text, const std::string& value) {
  text.replace(text.find("VALUE"), 5, value);
  return text;
}

}  // namespace

TEST_CASE("literal values round once to every dtype and print back bit for bit") {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> values = {0.0, -0.0, 1.0, -1.5, 0.1, 2.5, -3.5, 1.0e10, -1.0e10, 1.0e300, -1.0e300, inf, -inf,
                                std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::denorm_min(), std::numeric_limits<float>::denorm_min(),
                                -2147483648.0, 2147483647.0, 4294967296.0,
                                // above the f16 tie 1 + 2^-11 by less than float can hold: through
                                // float it would round to the tie, then to even (1.0)
                                1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),
                                // likewise for bf16 and the fp8 formats
                                1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40), 1.0 + std::ldexp(1.0, -4) + std::ldexp(1.0, -40),
                                1.0 + std::ldexp(1.0, -3) + std::ldexp(1.0, -40)};
  for (int i = 0; i < kNumDTypes; ++i) {
    DType d = DType(i);
    for (double x : values) {
      cuda::gen::Value v = cuda::gen::literal_value(x, d);
      CAPTURE(dtype_name(d));
      CAPTURE(x);
      CAPTURE(v.code);
      CHECK(v.rep == cuda::gen::natural_rep(d));
      double got = 0;
      REQUIRE(parse_literal(v.code, &got));
      CHECK(same_bits(got, round_to_dtype(d, x)));
    }
  }
}

TEST_CASE("f64 fills of the failing conformance cases carry the exact bits and compile") {
  TG_REQUIRE_NVRTC();
  struct Case {
    const char* value;  ///< as the conformance case writes it
    const char* bits;   ///< the literal the generated C++ must hold
  };
  for (const Case& c : {Case{"1.7976931348623157e308", "__longlong_as_double(0x7fefffffffffffffLL)"},
                        Case{"5e-324", "__longlong_as_double(0x0000000000000001LL)"},
                        Case{"0.1", "__longlong_as_double(0x3fb999999999999aLL)"},
                        Case{"1.0e300", "__longlong_as_double(0x7e37e43c8800759cLL)"}}) {
    CAPTURE(c.value);
    std::string text = with_value(kFillKernel, c.value);
    auto g = generate_for(text, "sm_90a");
    REQUIRE_MESSAGE(g.is_ok(), g.status().str());
    CHECK(contains(g->source, std::string("const double fv0 = ") + c.bits + ";"));
    auto ptx = ptx_for(text, "sm_90a");
    CHECK_MESSAGE(ptx.is_ok(), ptx.status().str());
  }
}

TEST_CASE("map and store literals and fills of shared and global tiles round once too") {
  TG_REQUIRE_NVRTC();
  std::string text = "kernel lit(Y: f64[64], Z: f64[64], W: f64[64], H: f16[64]) grid(1) threads(64) {\n"
                     "  alloc a: fragment f64[64]\n  alloc s: shared f64[64]\n"
                     "  map a = 0.1\n  copy a, Y[0]\n"
                     "  fill s, 1.0e300\n  copy s, Z[0]\n"
                     "  fill H[0], 1.0004882812500009, extent=[64]\n"
                     "  parallel i in 64 {\n    store W[i] = 5e-324\n  }\n}\n";
  auto g = generate_for(text, "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  CHECK(contains(g->source, "__longlong_as_double(0x3fb999999999999aLL)"));  // 0.1
  CHECK(contains(g->source, "__longlong_as_double(0x7e37e43c8800759cLL)"));  // 1.0e300
  CHECK(contains(g->source, "__longlong_as_double(0x0000000000000001LL)"));  // 5e-324
  CHECK(contains(g->source, "__uint_as_float(0x3f802000u)"));                // 1 + 2^-10 in f16
  auto ptx = ptx_for(text, "sm_90a");
  CHECK_MESSAGE(ptx.is_ok(), ptx.status().str());
}

}  // namespace literals_round_once_test
