// The conversions every generated kernel uses (codegen/Conversions.inc, compiled into the
// kernels as text) agree with core/DType.h, the definition: every f16, bf16, e4m3 and e5m2
// encoding decodes exactly, and encoding from float32 and float64 rounds exactly as
// core/DType.h does, over every float16-adjacent value, the fp8 ranges around every
// representable value, and random bit patterns. Compiled here on the host with shims for the
// few CUDA intrinsics the file uses.
#include <doctest/doctest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "core/DType.h"

namespace conv {

static inline unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}
static inline float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static inline int __float2int_rn(float f) { return int(std::nearbyint(f)); }
static inline float __double2float_rz(double x) {
  float f = float(x);  // round to nearest
  if (std::isfinite(x) && std::fabs(double(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
  if (std::isinf(f) && std::isfinite(x)) f = std::copysign(3.4028234663852886e38f, f);
  return f;
}
static inline float fabsf(float x) { return std::fabs(x); }
using std::rint;
using std::rintf;

#define TG_FN static inline
#include "plugins/cuda/codegen/Conversions.inc"

namespace conversions_match_dtype_test {
#undef TG_FN

}  // namespace conv

using namespace tegula;

static bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

TEST_CASE("decoding every 8- and 16-bit encoding is exact") {
  for (uint32_t b = 0; b < 65536; ++b) {
    CHECK(same(conv::tg_dec_f16_c(uint16_t(b)), f16_to_double(uint16_t(b))));
    CHECK(same(conv::tg_dec_bf16(uint16_t(b)), bf16_to_double(uint16_t(b))));
  }
  for (uint32_t b = 0; b < 256; ++b) {
    CHECK(same(conv::tg_dec_e4m3(uint8_t(b)), e4m3_to_double(uint8_t(b))));
    CHECK(same(conv::tg_dec_e5m2(uint8_t(b)), e5m2_to_double(uint8_t(b))));
  }
}

// Every float around the values of a 16-bit or 8-bit format: the values themselves, their
// neighbours, and the midpoints and their neighbours (the ties).
static std::vector<float> probes() {
  std::vector<float> v;
  auto around = [&](double x) {
    float f = float(x);
    v.push_back(f);
    v.push_back(std::nextafter(f, INFINITY));
    v.push_back(std::nextafter(f, -INFINITY));
  };
  for (uint32_t b = 0; b < 65536; ++b) {
    double x = f16_to_double(uint16_t(b)), y = f16_to_double(uint16_t(b + 1 < 65536 ? b + 1 : b));
    if (std::isfinite(x)) around(x);
    if (std::isfinite(x) && std::isfinite(y)) around((x + y) / 2);
    double p = bf16_to_double(uint16_t(b)), q = bf16_to_double(uint16_t(b + 1 < 65536 ? b + 1 : b));
    if (std::isfinite(p)) around(p);
    if (std::isfinite(p) && std::isfinite(q)) around((p + q) / 2);
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 2000000; ++i) v.push_back(conv::__uint_as_float(rng()));
  for (float s : {INFINITY, -INFINITY, NAN, 0.0f, -0.0f, 448.0f, 464.0f, 465.0f, 480.0f, 57344.0f, 61440.0f, 61439.0f, 65504.0f, 65519.0f,
                  65520.0f, 1e-30f, 3.4028234663852886e38f})
    v.push_back(s);
  return v;
}

TEST_CASE("encoding from float32 rounds as core/DType.h does") {
  int bad = 0;
  for (float f : probes()) {
    double x = f;
    if (conv::tg_enc_f16_c(f) != f16_from_double(x) && !(std::isnan(x) && std::isnan(conv::tg_dec_f16_c(conv::tg_enc_f16_c(f))))) ++bad;
    if (conv::tg_enc_bf16_c(f) != bf16_from_double(x) && !(std::isnan(x) && std::isnan(conv::tg_dec_bf16(conv::tg_enc_bf16_c(f))))) ++bad;
    if (conv::tg_enc_e4m3_sw(f) != e4m3_from_double(x) && !(std::isnan(x) && (conv::tg_enc_e4m3_sw(f) & 0x7f) == 0x7f)) ++bad;
    if (conv::tg_enc_e5m2_sw(f) != e5m2_from_double(x) && !(std::isnan(x) && std::isnan(conv::tg_dec_e5m2(conv::tg_enc_e5m2_sw(f))))) ++bad;
    uint32_t t = tf32_from_double(x), g = conv::__float_as_uint(conv::tg_rnd_tf32(f));
    if (t != g && !(std::isnan(x) && std::isnan(conv::tg_rnd_tf32(f)))) ++bad;
    if (bad == 1) {
      MESSAGE("first mismatch at " << f);
      ++bad;
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("encoding from float64 rounds once, through float rounded to odd") {
  std::mt19937_64 rng(11);
  int bad = 0;
  for (int i = 0; i < 2000000; ++i) {
    uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, 8);
    if (i % 2) x = std::ldexp(double(int64_t(bits >> 11)) / 9007199254740992.0, int(bits % 40) - 20);  // moderate magnitudes
    float odd = conv::tg_d2f_odd(x);
    bool nan = std::isnan(x);
    if (!nan && conv::tg_enc_f16_c(odd) != f16_from_double(x)) ++bad;
    if (!nan && conv::tg_enc_bf16_c(odd) != bf16_from_double(x)) ++bad;
    if (!nan && conv::tg_enc_e4m3_sw(odd) != e4m3_from_double(x)) ++bad;
    if (!nan && conv::tg_enc_e5m2_sw(odd) != e5m2_from_double(x)) ++bad;
  }
  CHECK(bad == 0);
}

TEST_CASE("integers round to nearest even, saturate, and NaN becomes 0") {
  const float fs[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 127.5f, 128.0f, -128.5f, -129.0f, 255.5f, 256.0f, NAN, INFINITY, -INFINITY, 3e9f, -3e9f,
                      2147483520.0f, 2147483648.0f};
  for (float f : fs) {
    CHECK(conv::tg_f2i(f, -128, 127) == int(round_to_dtype(DType::I8, f)));
    CHECK(conv::tg_f2i(f, 0, 255) == int(round_to_dtype(DType::U8, f)));
    CHECK(conv::tg_f2i(f, int(0x80000000u), 0x7fffffff) == int64_t(round_to_dtype(DType::I32, f)));
    CHECK(conv::tg_d2i(double(f), -128, 127) == int(round_to_dtype(DType::I8, f)));
  }
  CHECK(conv::tg_ll2i(1000, -128, 127) == 127);
  CHECK(conv::tg_ll2i(-1000, 0, 255) == 0);
}

// The generic codec (tg_enc_mini / tg_dec_mini) with the template arguments Expr.cpp writes
// from core's FloatFormat of each dtype, against core/DType.h: every encoding decodes
// exactly, and every float around each value and midpoint, and random bit patterns, encode
// as core does, in both store modes.
template <int E, int M, int B, int S, int SUB, int SP>
static void check_mini(DType d) {
  const FloatFormat& f = *float_format(d);
  REQUIRE(f.exp_bits == E);
  REQUIRE(f.man_bits == M);
  REQUIRE(f.bias == B);
  REQUIRE(int(f.sign) == S);
  REQUIRE(int(f.subnormals) == SUB);
  REQUIRE(int(f.specials) == SP);
  CAPTURE(dtype_name(d));
  int bad = 0;
  std::vector<float> xs;
  for (uint32_t b = 0; b < 256; ++b) {
    uint8_t byte = uint8_t(b);
    double want = load_element(d, &byte);
    double got = conv::tg_dec_mini<E, M, B, S, SUB, SP>(b);
    if (!same(got, want) && ++bad < 8) FAIL_CHECK("decode " << b << ": " << got << ", expected " << want);
    if (std::isfinite(want)) {
      uint8_t next_byte = uint8_t(b + 1);
      double next = load_element(d, &next_byte);
      for (double x : {want, std::isfinite(next) ? (want + next) / 2 : want}) {
        float fx = float(x);
        for (float y : {fx, std::nextafter(fx, INFINITY), std::nextafter(fx, -INFINITY), -fx}) xs.push_back(y);
      }
    }
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = rng();
    float x;
    std::memcpy(&x, &u, 4);
    xs.push_back(x);
  }
  for (float x : {INFINITY, -INFINITY, NAN, -NAN, 0.0f, -0.0f, 1e-45f, -1e-45f, 5.9e-39f, 3e38f}) xs.push_back(x);
  for (float x : xs) {
    uint8_t sat = 0, nonsat = 0;
    store_element(d, double(x), &sat, Fp8Mode::Saturating);
    store_element(d, double(x), &nonsat, Fp8Mode::NonSaturating);
    unsigned got_sat = conv::tg_enc_mini<E, M, B, S, SUB, SP, 1>(x);
    unsigned got_nonsat = conv::tg_enc_mini<E, M, B, S, SUB, SP, 0>(x);
    if (got_sat != sat && ++bad < 8) FAIL_CHECK("encode " << x << " saturating: " << got_sat << ", expected " << unsigned(sat));
    if (got_nonsat != nonsat && ++bad < 8) FAIL_CHECK("encode " << x << " non-saturating: " << got_nonsat << ", expected " << unsigned(nonsat));
  }
  CHECK(bad == 0);
}

TEST_CASE("the generic narrow-float codec agrees with core/DType.h for every format it serves") {
  check_mini<4, 3, 8, 1, 1, 2>(DType::E4M3FNUZ);
  check_mini<5, 2, 16, 1, 1, 2>(DType::E5M2FNUZ);
  check_mini<2, 3, 1, 1, 1, 3>(DType::E2M3);
  check_mini<3, 2, 3, 1, 1, 3>(DType::E3M2);
  check_mini<2, 1, 1, 1, 1, 3>(DType::E2M1);
  check_mini<8, 0, 127, 0, 0, 1>(DType::E8M0);
  check_mini<4, 3, 7, 0, 1, 1>(DType::UE4M3);
  // The OCP FP8 formats too: the same routine would serve them.
  check_mini<4, 3, 7, 1, 1, 1>(DType::E4M3);
  check_mini<5, 2, 15, 1, 1, 0>(DType::E5M2);
}

}  // namespace conversions_match_dtype_test
