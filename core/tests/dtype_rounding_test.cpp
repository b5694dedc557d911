// tf32 and f32 rounding from float64, and store_element/load_element/round_to_dtype agreeing
// with each other for every dtype.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "core/DType.h"
#include "core/tests/MinifloatReference.h"

namespace dtype_rounding_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

const DType kAll[] = {DType::F64,  DType::F32, DType::TF32, DType::F16,
                      DType::BF16, DType::E4M3, DType::E5M2, DType::I8,
                      DType::U8,   DType::I32, DType::Bool};

/// tf32 as a 19-bit format: the f32 bits shifted down by the 13 always-zero bits.
Codec tf32_codec() {
  return Codec{RefFormat{"tf32", 8, 10, 127, true}, RefOverflow::Inf,
               [](double x) { return tf32_from_double(x) >> 13; },
               [](uint32_t b) {
                 uint32_t bits = b << 13;
                 return load_element(DType::TF32, &bits);
               }};
}

double f32_round(double x) { return round_to_dtype(DType::F32, x); }

/// Same value, and both NaN count as the same; zeros must agree in sign.
bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

}  // namespace

TEST_CASE("tf32 decode then encode is the identity on all 2^19 encodings") {
  check_decode_all(tf32_codec());
  check_round_trip_all(tf32_codec());
}

TEST_CASE("tf32 rounds every midpoint to even and its neighbours to the nearer value") {
  check_midpoints_all(tf32_codec());
}

TEST_CASE("tf32 agrees with the reference on random float64s, and its low 13 bits are zero") {
  check_random(tf32_codec(), 200000, 0x7f32);
  check_specials(tf32_codec());
  std::mt19937_64 rng(99);
  for (int i = 0; i < 100000; ++i) {
    uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    CHECK((tf32_from_double(x) & 0x1fff) == 0);
  }
}

TEST_CASE("tf32 landmarks") {
  CHECK(tf32_from_double(1.0) == 0x3f800000);
  CHECK(tf32_from_double(1.0 + std::ldexp(1.0, -11)) == 0x3f800000);  // tie to even
  // 1 + 1.5 ulp: the tie between mantissa 1 (odd) and 2 (even) goes up to 2.
  CHECK(tf32_from_double(1.0 + std::ldexp(3.0, -11)) == 0x3f804000);
  CHECK(tf32_from_double(INFINITY) == 0x7f800000);
  CHECK(tf32_from_double(-1e300) == 0xff800000);
  CHECK(tf32_from_double(NAN) == 0x7fc00000);
  // Double rounding through float32 would lose the 2^-40 and land on the tie.
  CHECK(tf32_from_double(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)) == 0x3f802000);
  CHECK(round_to_dtype(DType::TF32, 1.0 + std::ldexp(1.0, -12)) == 1.0);
}

TEST_CASE("f32 from float64 is round-to-nearest-even") {
  // Ties between adjacent float32 values, computed exactly in float64.
  std::mt19937_64 rng(3232);
  int fails = 0;
  for (int i = 0; i < 200000; ++i) {
    uint32_t b = uint32_t(rng()) & 0x7fffffff;
    if (b >= 0x7f7fffff) continue;  // b and b + 1 must both be finite
    float lo = std::bit_cast<float>(b);
    float hi = std::bit_cast<float>(b + 1);
    double mid = double(lo) / 2 + double(hi) / 2;
    double want_mid = (b & 1) ? double(hi) : double(lo);
    if (f32_round(mid) != want_mid) ++fails;
    if (f32_round(std::nextafter(mid, 0.0)) != double(lo)) ++fails;
    if (f32_round(std::nextafter(mid, INFINITY)) != double(hi)) ++fails;
    if (f32_round(-mid) != -want_mid) ++fails;
  }
  CHECK(fails == 0);
  // Overflow: the midpoint past FLT_MAX goes to Inf, just below it stays at FLT_MAX.
  double flt_max = std::numeric_limits<float>::max();
  double past = flt_max + std::ldexp(1.0, 103);  // half an ulp at FLT_MAX (ulp is 2^104)
  CHECK(f32_round(past) == INFINITY);
  CHECK(f32_round(std::nextafter(past, 0.0)) == flt_max);
  CHECK(f32_round(-past) == -INFINITY);
  // Subnormals and underflow.
  CHECK(f32_round(std::ldexp(1.0, -149)) == std::ldexp(1.0, -149));
  CHECK(f32_round(std::ldexp(1.0, -150)) == 0.0);
  CHECK(std::signbit(f32_round(-std::ldexp(1.0, -150))));
  CHECK(f32_round(std::ldexp(3.0, -151)) == std::ldexp(1.0, -149));
  CHECK(std::isnan(f32_round(NAN)));
}

TEST_CASE("store then load round-trips every representable value of every dtype") {
  std::mt19937_64 rng(1234);
  for (DType t : kAll) {
    CAPTURE(dtype_name(t));
    // Every value round_to_dtype can produce is a fixed point of store+load, bit for bit.
    int fails = 0;
    for (int i = 0; i < 20000; ++i) {
      double x = std::ldexp(double(int64_t(rng() >> 11)) - double(int64_t(1) << 52),
                            int(rng() % 80) - 60);
      double v = round_to_dtype(t, x);
      alignas(8) unsigned char buf[8] = {};
      store_element(t, v, buf);
      double back = load_element(t, buf);
      if (!same_value(back, v)) ++fails;
      // Storing the reloaded value gives the same bytes.
      alignas(8) unsigned char buf2[8] = {};
      store_element(t, back, buf2);
      if (std::memcmp(buf, buf2, dtype_size(t)) != 0) ++fails;
    }
    CHECK(fails == 0);
  }
}

TEST_CASE("store_element writes exactly dtype_size bytes") {
  for (DType t : kAll) {
    CAPTURE(dtype_name(t));
    unsigned char buf[16];
    std::memset(buf, 0xa5, sizeof buf);
    store_element(t, 3.0, buf + 4);
    for (int i = 0; i < 4; ++i) CHECK(buf[i] == 0xa5);
    for (size_t i = 4 + dtype_size(t); i < sizeof buf; ++i) CHECK(buf[i] == 0xa5);
    CHECK(load_element(t, buf + 4) == (t == DType::Bool ? 1.0 : 3.0));
  }
}

TEST_CASE("store and load work at unaligned addresses") {
  for (DType t : kAll) {
    CAPTURE(dtype_name(t));
    unsigned char buf[16] = {};
    store_element(t, -1.0, buf + 1);
    double want = t == DType::U8 ? 0.0 : (t == DType::Bool ? 1.0 : -1.0);
    CHECK(load_element(t, buf + 1) == want);
  }
}

TEST_CASE("round_to_dtype agrees with store then load") {
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {0.0,
                             -0.0,
                             1.0,
                             -1.0,
                             0.5,
                             -0.5,
                             1.5,
                             2.5,
                             -2.5,
                             127.5,
                             128.0,
                             255.5,
                             256.0,
                             -129.0,
                             448.0,
                             464.0,
                             465.0,
                             57344.0,
                             61440.0,
                             65504.0,
                             65520.0,
                             1e10,
                             -1e10,
                             2147483647.5,
                             -2147483648.5,
                             3.4028234663852886e38,
                             3.4028235677973366e38,
                             1e300,
                             std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::denorm_min(),
                             std::numeric_limits<double>::min(),
                             std::ldexp(1.0, -149),
                             std::ldexp(1.0, -24),
                             inf,
                             -inf,
                             std::numeric_limits<double>::quiet_NaN(),
                             -std::numeric_limits<double>::quiet_NaN()};
  std::mt19937_64 rng(20240601);
  for (DType t : kAll) {
    CAPTURE(dtype_name(t));
    int fails = 0;
    auto check_one = [&](double x) {
      alignas(8) unsigned char buf[8] = {};
      store_element(t, x, buf);
      double via_memory = load_element(t, buf);
      double direct = round_to_dtype(t, x);
      if (!same_value(direct, via_memory)) ++fails;
      // Rounding is idempotent.
      if (!same_value(round_to_dtype(t, direct), direct)) ++fails;
    };
    for (double x : specials) check_one(x);
    for (int i = 0; i < 50000; ++i) {
      uint64_t bits = rng();
      double x;
      std::memcpy(&x, &bits, sizeof x);
      check_one(x);
      check_one(std::ldexp(double(int64_t(bits >> 11)) / double(int64_t(1) << 53),
                           int(bits % 70) - 30));
    }
    CHECK(fails == 0);
  }
}

TEST_CASE("round_to_dtype matches the bit-level conversions") {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 50000; ++i) {
    double x = std::ldexp(double(int64_t(rng() >> 11)) / double(int64_t(1) << 53) - 0.5,
                          int(rng() % 60) - 20);
    CHECK(same_value(round_to_dtype(DType::F16, x), f16_to_double(f16_from_double(x))));
    CHECK(same_value(round_to_dtype(DType::BF16, x), bf16_to_double(bf16_from_double(x))));
    CHECK(same_value(round_to_dtype(DType::E4M3, x),
                     e4m3_to_double(e4m3_from_double(x, Fp8Mode::Saturating))));
    CHECK(same_value(round_to_dtype(DType::E5M2, x),
                     e5m2_to_double(e5m2_from_double(x, Fp8Mode::Saturating))));
    CHECK(same_value(round_to_dtype(DType::F32, x), double(float(x))));
    CHECK(same_value(round_to_dtype(DType::F64, x), x));
  }
  // A store into an FP8 buffer saturates.
  CHECK(round_to_dtype(DType::E4M3, INFINITY) == 448.0);
  CHECK(round_to_dtype(DType::E5M2, -INFINITY) == -57344.0);
  CHECK(round_to_dtype(DType::E5M2, 1e9) == 57344.0);
  CHECK(round_to_dtype(DType::F16, 1e9) == INFINITY);
}

}  // namespace dtype_rounding_test
