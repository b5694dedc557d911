// f16 (IEEE binary16): every encoding, every rounding boundary, against independent models.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "core/DType.h"
#include "core/tests/MinifloatReference.h"

namespace dtype_f16_exhaustive_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

Codec f16_codec() {
  return Codec{RefFormat{"f16", 5, 10, 15, true}, RefOverflow::Inf,
               [](double x) { return uint32_t(f16_from_double(x)); },
               [](uint32_t b) { return f16_to_double(uint16_t(b)); }};
}

}  // namespace

TEST_CASE("f16 decodes every encoding to its exact value") { check_decode_all(f16_codec()); }

TEST_CASE("f16 decode then encode is the identity on all 65536 encodings") {
  check_round_trip_all(f16_codec());
}

TEST_CASE("f16 rounds every midpoint to even and its neighbours to the nearer value") {
  check_midpoints_all(f16_codec());
}

TEST_CASE("f16 agrees with the reference on random float64s") {
  check_random(f16_codec(), 400000, 0x5eed0f16);
}

TEST_CASE("f16 specials and overflow") {
  check_specials(f16_codec());
  CHECK(f16_from_double(65504.0) == 0x7bff);
  CHECK(f16_from_double(65519.99999999999) == 0x7bff);
  CHECK(f16_from_double(65520.0) == 0x7c00);  // the midpoint past max ties to "even" Inf
  CHECK(f16_from_double(-65520.0) == 0xfc00);
  CHECK(f16_from_double(1e10) == 0x7c00);
  CHECK(f16_from_double(INFINITY) == 0x7c00);
  CHECK(f16_from_double(-INFINITY) == 0xfc00);
  CHECK((f16_from_double(NAN) & 0x7c00) == 0x7c00);
  CHECK((f16_from_double(NAN) & 0x03ff) != 0);
  CHECK(f16_from_double(1.0) == 0x3c00);
  CHECK(f16_from_double(-2.0) == 0xc000);
  CHECK(f16_from_double(std::ldexp(1.0, -24)) == 0x0001);  // smallest subnormal
  CHECK(f16_from_double(std::ldexp(1.0, -25)) == 0x0000);  // half of it ties to zero
  CHECK(f16_from_double(std::nextafter(std::ldexp(1.0, -25), 1.0)) == 0x0001);
  CHECK(f16_from_double(std::ldexp(1.0, -14)) == 0x0400);  // smallest normal
  CHECK(f16_to_double(0x0001) == std::ldexp(1.0, -24));
  CHECK(f16_to_double(0x03ff) == std::ldexp(1023.0, -24));
  CHECK(std::isinf(f16_to_double(0x7c00)));
  CHECK(std::isnan(f16_to_double(0x7e00)));
  CHECK(std::signbit(f16_to_double(0x8000)));
}

TEST_CASE("f16 is rounded once from float64, not through float32") {
  // 1 + 2^-11 + 2^-40: as float32 it becomes 1 + 2^-11 (a tie), which would then round to
  // even (1.0). Rounded directly it is just above the tie and must round up.
  double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(double(float(x)) == 1.0 + std::ldexp(1.0, -11));
  CHECK(f16_from_double(x) == 0x3c01);
}

#if defined(__FLT16_MAX__)
// The compiler's own binary16 (libgcc/compiler-rt soft-float) as a second, unrelated model.
TEST_CASE("f16 agrees with the compiler's _Float16 conversions") {
  MismatchLog log("f16 vs _Float16");
  for (uint32_t b = 0; b < 65536; ++b) {
    double ours = f16_to_double(uint16_t(b));
    double theirs = double(std::bit_cast<_Float16>(uint16_t(b)));
    bool ok = std::isnan(theirs) ? std::isnan(ours) : ours == theirs;
    log.expect(ok, hex(b));
    if (std::isnan(theirs)) continue;
    // Midpoints to the next encoding, and their neighbours.
    if ((b & 0x7fff) >= 0x7bff) continue;
    double next = double(std::bit_cast<_Float16>(uint16_t(b + 1)));
    double mid = ours / 2 + next / 2;
    for (double x : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 2 * mid)}) {
      volatile double vx = x;  // keep the conversion at run time
      uint16_t want = std::bit_cast<uint16_t>(static_cast<_Float16>(vx));
      log.expect(f16_from_double(x) == want, show(x));
    }
  }
  CHECK(log.count() == 0);
}
#endif

}  // namespace dtype_f16_exhaustive_test
