// bf16 (top half of binary32): every encoding, every rounding boundary, against a model.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "core/DType.h"
#include "core/tests/MinifloatReference.h"

namespace dtype_bf16_exhaustive_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

Codec bf16_codec() {
  return Codec{RefFormat{"bf16", 8, 7, 127, true}, RefOverflow::Inf,
               [](double x) { return uint32_t(bf16_from_double(x)); },
               [](uint32_t b) { return bf16_to_double(uint16_t(b)); }};
}

}  // namespace

TEST_CASE("bf16 decodes every encoding to its exact value") { check_decode_all(bf16_codec()); }

TEST_CASE("bf16 decode then encode is the identity on all 65536 encodings") {
  check_round_trip_all(bf16_codec());
}

TEST_CASE("bf16 rounds every midpoint to even and its neighbours to the nearer value") {
  check_midpoints_all(bf16_codec());
}

TEST_CASE("bf16 agrees with the reference on random float64s") {
  check_random(bf16_codec(), 400000, 0x5eedbf16);
}

TEST_CASE("bf16 is the top half of a binary32") {
  // Every bf16 value is exactly the float32 whose low 16 bits are zero.
  MismatchLog log("bf16 vs float32");
  for (uint32_t b = 0; b < 65536; ++b) {
    float f = std::bit_cast<float>(b << 16);
    double d = bf16_to_double(uint16_t(b));
    log.expect(std::isnan(f) ? std::isnan(d) : double(f) == d, hex(b));
  }
  CHECK(log.count() == 0);
}

TEST_CASE("bf16 specials and overflow") {
  check_specials(bf16_codec());
  double max = std::ldexp(255.0, 120);  // (2 - 2^-7) * 2^127
  CHECK(bf16_from_double(max) == 0x7f7f);
  CHECK(bf16_from_double(max + std::ldexp(1.0, 119)) == 0x7f80);  // midpoint past max -> Inf
  CHECK(bf16_from_double(std::nextafter(max + std::ldexp(1.0, 119), 0.0)) == 0x7f7f);
  CHECK(bf16_from_double(-1e300) == 0xff80);
  CHECK(bf16_from_double(1.0) == 0x3f80);
  CHECK(bf16_from_double(std::ldexp(1.0, -133)) == 0x0001);  // smallest subnormal
  CHECK(bf16_from_double(std::ldexp(1.0, -134)) == 0x0000);
  CHECK(bf16_from_double(std::ldexp(3.0, -134)) == 0x0002);  // 1.5 ulps ties to even 2
  CHECK(bf16_from_double(NAN) == 0x7fc0);
}

TEST_CASE("bf16 is rounded once from float64, not through float32") {
  // 1 + 2^-8 + 2^-30: float32 rounds it to the tie 1 + 2^-8, which would round to even 1.0.
  double x = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  CHECK(double(float(x)) == 1.0 + std::ldexp(1.0, -8));
  CHECK(bf16_from_double(x) == 0x3f81);
}

}  // namespace dtype_bf16_exhaustive_test
