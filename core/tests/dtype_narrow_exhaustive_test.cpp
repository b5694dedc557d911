// The narrow floats beyond OCP FP8 (FNUZ fp8, fp6, fp4, e8m0, ue4m3): every encoding
// decodes to its value, and encoding agrees with an oracle that rounds by searching the
// sorted table of every finite value (as MinifloatReference.h does for f16 and fp8) on every
// value, every midpoint and its neighbours, out-of-range and special inputs and random
// doubles, in both store modes. Values a reader can check by hand pin each format first.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/tests/MinifloatReference.h"

namespace dtype_narrow_exhaustive_test {

using namespace tegula;
using tegula::testing::hex;
using tegula::testing::MismatchLog;
using tegula::testing::show;

namespace {

const DType kNarrow[] = {DType::E4M3FNUZ, DType::E5M2FNUZ, DType::E2M3, DType::E3M2,
                         DType::E2M1,     DType::E8M0,     DType::UE4M3};
const Fp8Mode kModes[] = {Fp8Mode::Saturating, Fp8Mode::NonSaturating};

uint32_t encode(DType d, double x, Fp8Mode mode) {
  uint8_t b = 0;
  store_element(d, x, &b, mode);
  return b;
}
double decode(DType d, uint32_t b) {
  uint8_t byte = uint8_t(b);
  return load_element(d, &byte);
}

/// The oracle: every finite magnitude by table search; the rules of core/DType.h for what
/// lies outside the table, written out case by case.
struct Oracle {
  DType d;
  const FloatFormat& f;
  std::vector<double> table;  // value of magnitude bits 0..max_magnitude, ascending

  explicit Oracle(DType t) : d(t), f(*float_format(t)) {
    for (uint64_t m = 0; m <= f.max_magnitude(); ++m) table.push_back(decode(t, uint32_t(m)));
  }
  /// The value the exponent range would have next: max plus one step at max's spacing (with
  /// no mantissa bits, e8m0, the next power of two).
  double next_past_max() const {
    double top = table.back();
    return f.man_bits == 0 ? 2 * top : top + (top - table[table.size() - 2]);
  }
  bool has_nan() const { return f.specials != FloatSpecials::None; }
  uint32_t nan(bool negative) const {
    if (f.specials == FloatSpecials::NanNegZero) return uint32_t(f.nan_bits());
    return uint32_t((negative ? f.sign_bit() : 0) | f.nan_bits());
  }
  uint32_t overflow(bool negative, Fp8Mode mode) const {
    uint32_t sign = negative ? uint32_t(f.sign_bit()) : 0;
    if (mode == Fp8Mode::Saturating || !has_nan()) return sign | uint32_t(f.max_magnitude());
    return nan(negative);
  }
  uint32_t expect(double x, Fp8Mode mode) const {
    bool negative = std::signbit(x);
    if (std::isnan(x)) return has_nan() ? nan(negative) : uint32_t(f.max_magnitude());
    double a = std::fabs(x);
    uint32_t mag;
    if (std::isinf(x)) {
      mag = uint32_t(table.size());  // past max
    } else if (a < table[0]) {
      mag = 0;  // e8m0: below its smallest value (zero included)
    } else {
      size_t hi = size_t(std::upper_bound(table.begin(), table.end(), a) - table.begin());
      size_t lo = hi - 1;
      double hi_v = hi < table.size() ? table[hi] : next_past_max();
      double mid = table[lo] / 2 + hi_v / 2;
      // Ties: to the even mantissa; with no mantissa bits (e8m0) up, to the next power.
      bool tie_up = f.man_bits == 0 || (lo & 1);
      bool up = table[lo] != a && (a > mid || (a == mid && tie_up));
      mag = uint32_t(up ? hi : lo);
    }
    if (!f.sign && negative && x != 0 && (mag != 0 || !f.subnormals))
      return mode == Fp8Mode::Saturating ? 0 : uint32_t(f.nan_bits());
    if (mag >= table.size()) return overflow(negative, mode);
    if (f.specials == FloatSpecials::NanNegZero && mag == 0) return 0;
    return (negative ? uint32_t(f.sign_bit()) : 0) | mag;
  }
};

bool same(DType d, uint32_t got, uint32_t want) {
  if (std::isnan(decode(d, want))) return std::isnan(decode(d, got)) && std::signbit(decode(d, got)) == std::signbit(decode(d, want));
  return got == want;
}

void check_inputs(const Oracle& o, const std::vector<double>& xs, const std::string& what) {
  for (Fp8Mode mode : kModes) {
    MismatchLog log(std::string(dtype_name(o.d)) + " " + what + (mode == Fp8Mode::Saturating ? " (saturating)" : " (non-saturating)"));
    for (double x : xs) {
      uint32_t got = encode(o.d, x, mode), want = o.expect(x, mode);
      log.expect(same(o.d, got, want), show(x) + " -> " + hex(got) + ", expected " + hex(want));
    }
    CHECK(log.count() == 0);
  }
}

}  // namespace

TEST_CASE("each format's landmarks are the documented values") {
  CHECK(dtype_max(DType::E4M3FNUZ) == 240);
  CHECK(dtype_max(DType::E5M2FNUZ) == 57344);
  CHECK(dtype_max(DType::E2M3) == 7.5);
  CHECK(dtype_max(DType::E3M2) == 28);
  CHECK(dtype_max(DType::E2M1) == 6);
  CHECK(dtype_max(DType::E8M0) == std::ldexp(1.0, 127));
  CHECK(dtype_max(DType::UE4M3) == 448);
  CHECK(dtype_lowest(DType::E2M1) == -6);
  CHECK(dtype_lowest(DType::UE4M3) == 0);
  CHECK(dtype_lowest(DType::E8M0) == std::ldexp(1.0, -127));
  // Smallest subnormals: 2^(1 - bias - mantissa bits).
  CHECK(decode(DType::E4M3FNUZ, 0x01) == std::ldexp(1.0, -10));
  CHECK(decode(DType::E5M2FNUZ, 0x01) == std::ldexp(1.0, -17));
  CHECK(decode(DType::E2M3, 0x01) == 0.125);
  CHECK(decode(DType::E3M2, 0x01) == 0.0625);
  CHECK(decode(DType::E2M1, 0x01) == 0.5);
  const double e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (uint32_t b = 0; b < 8; ++b) {
    CHECK(decode(DType::E2M1, b) == e2m1[b]);
    CHECK(decode(DType::E2M1, b | 8) == -e2m1[b]);
  }
  // FNUZ: 0x80 (the -0 pattern) is the one NaN; 1.0 is 0x40 (e4m3fnuz) and 0x40 (e5m2fnuz).
  CHECK(std::isnan(decode(DType::E4M3FNUZ, 0x80)));
  CHECK(std::isnan(decode(DType::E5M2FNUZ, 0x80)));
  CHECK(decode(DType::E4M3FNUZ, 0x40) == 1.0);
  CHECK(decode(DType::E5M2FNUZ, 0x40) == 1.0);
  CHECK(decode(DType::E4M3FNUZ, 0xff) == -240);
  // e8m0: code c is 2^(c - 127); 255 is NaN.
  CHECK(decode(DType::E8M0, 127) == 1.0);
  CHECK(decode(DType::E8M0, 0) == std::ldexp(1.0, -127));
  CHECK(std::isnan(decode(DType::E8M0, 255)));
  // ue4m3: e4m3 without a sign; bit 7 ignored when loaded.
  CHECK(decode(DType::UE4M3, 0x7e) == 448);
  CHECK(std::isnan(decode(DType::UE4M3, 0x7f)));
  CHECK(decode(DType::UE4M3, 0x38) == 1.0);
  CHECK(decode(DType::UE4M3, 0xb8) == 1.0);
  // fp6 and fp4 ignore the bits above their width.
  CHECK(decode(DType::E2M1, 0xf9) == -0.5);
  CHECK(decode(DType::E2M1, 0xf1) == 0.5);
  CHECK(decode(DType::E2M3, 0xc1) == 0.125);
}

TEST_CASE("no narrow format has an encoding that decodes to -0 where it has no -0, and stores keep to their width") {
  for (DType d : kNarrow) {
    CAPTURE(dtype_name(d));
    const FloatFormat& f = *float_format(d);
    for (Fp8Mode mode : kModes) {
      for (double x : {0.0, -0.0, -1e-300, 1e300, -1e300, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                       std::nan(""), -std::nan(""), 1.0, -1.0}) {
        uint32_t b = encode(d, x, mode);
        CHECK(b < (uint32_t(1) << f.bits()));
      }
    }
  }
  CHECK(encode(DType::E4M3FNUZ, -0.0, Fp8Mode::Saturating) == 0);
  CHECK(encode(DType::E5M2FNUZ, -1e-30, Fp8Mode::Saturating) == 0);
  CHECK(encode(DType::UE4M3, -0.0, Fp8Mode::Saturating) == 0);
}

TEST_CASE("every encoding decodes to a value that encodes back to it, in both modes") {
  for (DType d : kNarrow) {
    for (Fp8Mode mode : kModes) {
      MismatchLog log(std::string(dtype_name(d)) + " round trip");
      const FloatFormat& f = *float_format(d);
      for (uint32_t b = 0; b < (uint32_t(1) << f.bits()); ++b) {
        double v = decode(d, b);
        uint32_t back = encode(d, v, mode);
        uint32_t want = b;
        if (f.specials == FloatSpecials::NanNegZero && std::isnan(v)) want = uint32_t(f.nan_bits());
        if (f.specials == FloatSpecials::None && std::isnan(v)) want = uint32_t(f.max_magnitude());
        log.expect(same(d, back, want), hex(b) + " = " + show(v) + " -> " + hex(back));
      }
      CHECK(log.count() == 0);
    }
  }
}

TEST_CASE("every value, midpoint and neighbour rounds as the table search says") {
  for (DType d : kNarrow) {
    Oracle o(d);
    std::vector<double> xs;
    for (size_t i = 0; i < o.table.size(); ++i) {
      double v = o.table[i];
      double next = i + 1 < o.table.size() ? o.table[i + 1] : o.next_past_max();
      double mid = v / 2 + next / 2;
      for (double s : {1.0, -1.0}) {
        for (double x : {v, mid, next}) {
          xs.push_back(s * x);
          xs.push_back(s * std::nextafter(x, 0.0));
          xs.push_back(s * std::nextafter(x, HUGE_VAL));
        }
      }
    }
    check_inputs(o, xs, "values and midpoints");
  }
}

TEST_CASE("specials and out-of-range inputs follow the documented rules") {
  const double inf = std::numeric_limits<double>::infinity();
  for (DType d : kNarrow) {
    Oracle o(d);
    check_inputs(o, {0.0, -0.0, inf, -inf, std::nan(""), -std::nan(""), 1e300, -1e300, 5e-324, -5e-324, std::ldexp(1.0, -140)},
                 "specials");
  }
  // Spelled out, so the oracle's reading of the rules is checked too.
  const Fp8Mode sat = Fp8Mode::Saturating, nonsat = Fp8Mode::NonSaturating;
  CHECK(encode(DType::E4M3FNUZ, 1e9, sat) == 0x7f);
  CHECK(encode(DType::E4M3FNUZ, -1e9, sat) == 0xff);
  CHECK(encode(DType::E4M3FNUZ, 1e9, nonsat) == 0x80);
  CHECK(encode(DType::E4M3FNUZ, -inf, nonsat) == 0x80);
  CHECK(encode(DType::E5M2FNUZ, std::nan(""), sat) == 0x80);
  CHECK(encode(DType::E2M1, 7.0, nonsat) == 0x07);    // no NaN, no Inf: saturates anyway
  CHECK(encode(DType::E2M1, -inf, nonsat) == 0x0f);
  CHECK(encode(DType::E2M1, std::nan(""), sat) == 0x07);  // NaN: +max, as cvt.satfinite
  CHECK(encode(DType::E2M1, 5.0, sat) == 0x06);       // a tie between 4 and 6: even mantissa
  CHECK(encode(DType::E2M1, 2.5, sat) == 0x04);       // between 2 and 3: to 2 (even)
  CHECK(encode(DType::E8M0, 0.0, sat) == 0x00);
  CHECK(encode(DType::E8M0, 1.5, sat) == 128);        // a tie goes up: 2
  CHECK(encode(DType::E8M0, 1.4999, sat) == 127);
  CHECK(encode(DType::E8M0, 3.0, sat) == 129);
  CHECK(encode(DType::E8M0, 1e300, sat) == 254);
  CHECK(encode(DType::E8M0, 1e300, nonsat) == 255);
  CHECK(encode(DType::E8M0, -1.0, sat) == 0);
  CHECK(encode(DType::E8M0, -1.0, nonsat) == 255);
  CHECK(encode(DType::UE4M3, -1.0, sat) == 0);
  CHECK(encode(DType::UE4M3, -1.0, nonsat) == 0x7f);
  CHECK(encode(DType::UE4M3, -1e9, sat) == 0);
  CHECK(encode(DType::UE4M3, 1e9, sat) == 0x7e);
  CHECK(encode(DType::UE4M3, 1e9, nonsat) == 0x7f);
  CHECK(encode(DType::UE4M3, -1e-9, nonsat) == 0);  // rounds to zero: no negative value to refuse
}

TEST_CASE("random doubles round as the table search says") {
  std::mt19937_64 rng(20261208);
  for (DType d : kNarrow) {
    Oracle o(d);
    double top = dtype_max(d) * 1.5;
    std::uniform_real_distribution<double> uni(-top, top);
    std::uniform_int_distribution<int> expo(-140, 130);
    std::vector<double> xs;
    for (int i = 0; i < 20000; ++i) {
      xs.push_back(uni(rng));
      xs.push_back(std::ldexp(uni(rng) / top, expo(rng)));
    }
    check_inputs(o, xs, "random");
  }
}

}  // namespace dtype_narrow_exhaustive_test
