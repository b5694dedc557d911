// OCP FP8 (E4M3 "FN" and E5M2): all 256 encodings of each, in both conversion modes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "core/DType.h"
#include "core/tests/MinifloatReference.h"

namespace dtype_fp8_exhaustive_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

const RefFormat kE4M3{"e4m3", 4, 3, 7, false};
const RefFormat kE5M2{"e5m2", 5, 2, 15, true};

Codec e4m3_codec(Fp8Mode mode) {
  // OCP: saturating clamps to max; non-saturating E4M3 has no Inf, so it produces NaN.
  RefOverflow overflow = mode == Fp8Mode::Saturating ? RefOverflow::Max : RefOverflow::Nan;
  return Codec{kE4M3, overflow, [mode](double x) { return uint32_t(e4m3_from_double(x, mode)); },
               [](uint32_t b) { return e4m3_to_double(uint8_t(b)); }};
}

Codec e5m2_codec(Fp8Mode mode) {
  RefOverflow overflow = mode == Fp8Mode::Saturating ? RefOverflow::Max : RefOverflow::Inf;
  return Codec{kE5M2, overflow, [mode](double x) { return uint32_t(e5m2_from_double(x, mode)); },
               [](uint32_t b) { return e5m2_to_double(uint8_t(b)); }};
}

const Fp8Mode kModes[] = {Fp8Mode::Saturating, Fp8Mode::NonSaturating};

std::string mode_name(Fp8Mode m) {
  return m == Fp8Mode::Saturating ? "saturating" : "non-saturating";
}

}  // namespace

TEST_CASE("fp8 decodes every encoding to its exact value") {
  check_decode_all(e4m3_codec(Fp8Mode::Saturating));
  check_decode_all(e5m2_codec(Fp8Mode::Saturating));
}

TEST_CASE("fp8 decode then encode is the identity on all 256 encodings, in both modes") {
  for (Fp8Mode mode : kModes) {
    std::string mode_s = mode_name(mode);
    CAPTURE(mode_s);
    check_round_trip_all(e4m3_codec(mode));
    check_round_trip_all(e5m2_codec(mode));
  }
}

TEST_CASE("fp8 rounds every midpoint to even, including the one past max") {
  for (Fp8Mode mode : kModes) {
    std::string mode_s = mode_name(mode);
    CAPTURE(mode_s);
    check_midpoints_all(e4m3_codec(mode));
    check_midpoints_all(e5m2_codec(mode));
  }
}

TEST_CASE("fp8 agrees with the reference on random float64s") {
  for (Fp8Mode mode : kModes) {
    std::string mode_s = mode_name(mode);
    CAPTURE(mode_s);
    check_random(e4m3_codec(mode), 200000, 0xe4e3);
    check_random(e5m2_codec(mode), 200000, 0xe5e2);
    check_specials(e4m3_codec(mode));
    check_specials(e5m2_codec(mode));
  }
}

TEST_CASE("e4m3 value table landmarks") {
  CHECK(e4m3_to_double(0x7e) == 448.0);  // S.1111.110: max normal
  CHECK(std::isnan(e4m3_to_double(0x7f)));  // S.1111.111: the only NaN
  CHECK(std::isnan(e4m3_to_double(0xff)));
  CHECK(std::signbit(e4m3_to_double(0xff)));
  CHECK(e4m3_to_double(0x78) == 256.0);  // S.1111.000 is a normal number, not Inf
  CHECK(e4m3_to_double(0x08) == std::ldexp(1.0, -6));  // min normal
  CHECK(e4m3_to_double(0x07) == 0.875 * std::ldexp(1.0, -6));  // max subnormal
  CHECK(e4m3_to_double(0x01) == std::ldexp(1.0, -9));  // min subnormal
  CHECK(e4m3_to_double(0x80) == 0.0);
  CHECK(std::signbit(e4m3_to_double(0x80)));  // negative zero exists
  // No encoding decodes to an infinity.
  for (int b = 0; b < 256; ++b) CHECK_FALSE(std::isinf(e4m3_to_double(uint8_t(b))));
}

TEST_CASE("e5m2 Inf survives a round trip only without saturation") {
  CHECK(e5m2_from_double(e5m2_to_double(0x7c), Fp8Mode::NonSaturating) == 0x7c);
  CHECK(e5m2_from_double(e5m2_to_double(0xfc), Fp8Mode::NonSaturating) == 0xfc);
  CHECK(e5m2_from_double(e5m2_to_double(0x7c), Fp8Mode::Saturating) == 0x7b);
  CHECK(e5m2_from_double(e5m2_to_double(0xfc), Fp8Mode::Saturating) == 0xfb);
}

TEST_CASE("e5m2 value table landmarks") {
  CHECK(e5m2_to_double(0x7b) == 57344.0);  // S.11110.11: max normal
  CHECK(e5m2_to_double(0x7c) == INFINITY);  // S.11111.00
  CHECK(e5m2_to_double(0xfc) == -INFINITY);
  CHECK(std::isnan(e5m2_to_double(0x7d)));
  CHECK(std::isnan(e5m2_to_double(0x7e)));
  CHECK(std::isnan(e5m2_to_double(0x7f)));
  CHECK(e5m2_to_double(0x04) == std::ldexp(1.0, -14));  // min normal
  CHECK(e5m2_to_double(0x03) == 0.75 * std::ldexp(1.0, -14));  // max subnormal
  CHECK(e5m2_to_double(0x01) == std::ldexp(1.0, -16));  // min subnormal
  CHECK(std::signbit(e5m2_to_double(0x80)));
}

TEST_CASE("e4m3 saturation rules (OCP OFP8 table 3)") {
  const Fp8Mode sat = Fp8Mode::Saturating;
  const Fp8Mode nonsat = Fp8Mode::NonSaturating;
  // The default is saturating.
  CHECK(e4m3_from_double(1e6) == 0x7e);
  // 464 is the tie between 448 (mantissa 110, even) and 480 (past max): stays 448.
  CHECK(e4m3_from_double(464.0, sat) == 0x7e);
  CHECK(e4m3_from_double(464.0, nonsat) == 0x7e);
  CHECK(e4m3_from_double(std::nextafter(464.0, 0.0), nonsat) == 0x7e);
  // Anything rounding past 448 overflows.
  CHECK(e4m3_from_double(std::nextafter(464.0, 1e9), sat) == 0x7e);
  CHECK(e4m3_from_double(std::nextafter(464.0, 1e9), nonsat) == 0x7f);
  CHECK(e4m3_from_double(-480.0, sat) == 0xfe);
  CHECK((e4m3_from_double(-480.0, nonsat) & 0x7f) == 0x7f);
  // Inf: saturating clamps to max, non-saturating gives NaN.
  CHECK(e4m3_from_double(INFINITY, sat) == 0x7e);
  CHECK(e4m3_from_double(-INFINITY, sat) == 0xfe);
  CHECK((e4m3_from_double(INFINITY, nonsat) & 0x7f) == 0x7f);
  CHECK((e4m3_from_double(-INFINITY, nonsat) & 0x7f) == 0x7f);
  // NaN stays NaN in both modes (sign kept).
  CHECK(e4m3_from_double(NAN, sat) == 0x7f);
  CHECK(e4m3_from_double(NAN, nonsat) == 0x7f);
  CHECK(e4m3_from_double(-NAN, sat) == 0xff);
  // Underflow keeps the sign.
  CHECK(e4m3_from_double(std::ldexp(1.0, -10), sat) == 0x00);  // half the min subnormal: tie
  CHECK(e4m3_from_double(-std::ldexp(1.0, -10), sat) == 0x80);
  CHECK(e4m3_from_double(std::ldexp(1.5, -10), sat) == 0x01);
}

TEST_CASE("e5m2 saturation rules (OCP OFP8 table 3)") {
  const Fp8Mode sat = Fp8Mode::Saturating;
  const Fp8Mode nonsat = Fp8Mode::NonSaturating;
  CHECK(e5m2_from_double(1e6) == 0x7b);
  // 61440 is the tie between 57344 (mantissa 11, odd) and 65536: rounds up, i.e. overflows.
  CHECK(e5m2_from_double(61440.0, sat) == 0x7b);
  CHECK(e5m2_from_double(61440.0, nonsat) == 0x7c);
  CHECK(e5m2_from_double(std::nextafter(61440.0, 0.0), nonsat) == 0x7b);
  CHECK(e5m2_from_double(-1e6, sat) == 0xfb);
  CHECK(e5m2_from_double(-1e6, nonsat) == 0xfc);
  CHECK(e5m2_from_double(INFINITY, sat) == 0x7b);
  CHECK(e5m2_from_double(-INFINITY, sat) == 0xfb);
  CHECK(e5m2_from_double(INFINITY, nonsat) == 0x7c);
  CHECK(e5m2_from_double(-INFINITY, nonsat) == 0xfc);
  uint8_t n = e5m2_from_double(NAN, sat);
  CHECK(((n & 0x7c) == 0x7c && (n & 0x03) != 0));
  CHECK((e5m2_from_double(-NAN, nonsat) & 0x80) == 0x80);
}

}  // namespace dtype_fp8_exhaustive_test
