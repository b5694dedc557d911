/// \file
/// An independent float64 model of the narrow float formats, for the exhaustive dtype tests.
///
/// It shares no code with core/DType.cpp and works differently on purpose: values come from
/// the bit fields with ldexp, and rounding is done by searching the sorted table of every
/// finite value and comparing against the exact midpoint of the two neighbours. The
/// implementation rounds by integer arithmetic on the float64's bits; the two agreeing on
/// every encoding, every midpoint and many random inputs is the evidence that both are right.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace tegula::testing {

/// What a conversion does with finite values past the largest finite value, and with Inf.
enum class RefOverflow { Inf, Max, Nan };

struct RefFormat {
  const char* name;
  int exp_bits;
  int man_bits;
  int bias;
  bool has_inf;  ///< IEEE: top exponent field is Inf/NaN. Otherwise only all-ones is NaN.

  int total_bits() const { return 1 + exp_bits + man_bits; }
  uint32_t count() const { return uint32_t(1) << total_bits(); }
  uint32_t sign_mask() const { return uint32_t(1) << (exp_bits + man_bits); }
  uint32_t top_exp() const { return (uint32_t(1) << exp_bits) - 1; }
  uint32_t exp_of(uint32_t bits) const { return (bits >> man_bits) & top_exp(); }
  uint32_t man_of(uint32_t bits) const { return bits & ((uint32_t(1) << man_bits) - 1); }

  bool is_nan(uint32_t bits) const {
    uint32_t mag = bits & ~sign_mask();
    if (has_inf) return exp_of(mag) == top_exp() && man_of(mag) != 0;
    return mag == sign_mask() - 1;
  }
  bool is_inf(uint32_t bits) const {
    return has_inf && exp_of(bits) == top_exp() && man_of(bits) == 0;
  }
  /// Magnitude bits of the largest finite value.
  uint32_t max_mag() const {
    if (has_inf) return (top_exp() << man_bits) - 1;
    return sign_mask() - 2;
  }
  uint32_t inf_mag() const { return top_exp() << man_bits; }
};

/// The value of an encoding, straight from the definition:
/// subnormal: 0.m * 2^(1-bias); normal: 1.m * 2^(e-bias).
inline double ref_decode(const RefFormat& f, uint32_t bits) {
  double sign = (bits & f.sign_mask()) ? -1.0 : 1.0;
  if (f.is_nan(bits)) return std::copysign(std::numeric_limits<double>::quiet_NaN(), sign);
  if (f.is_inf(bits)) return sign * std::numeric_limits<double>::infinity();
  uint32_t e = f.exp_of(bits);
  double frac = std::ldexp(double(f.man_of(bits)), -f.man_bits);  // 0.m
  if (e == 0) return sign * std::ldexp(frac, 1 - f.bias);
  return sign * std::ldexp(1.0 + frac, int(e) - f.bias);
}

/// Sorted table of every non-negative finite value (index == magnitude bits).
inline std::vector<double> ref_table(const RefFormat& f) {
  std::vector<double> v;
  for (uint32_t m = 0; m <= f.max_mag(); ++m) v.push_back(ref_decode(f, m));
  return v;
}

/// What converting x should give, by table search. `table` is ref_table(f).
inline uint32_t ref_round(const RefFormat& f, const std::vector<double>& table, double x,
                          RefOverflow overflow) {
  uint32_t sign = std::signbit(x) ? f.sign_mask() : 0;
  uint32_t nan = f.has_inf ? (f.inf_mag() | (uint32_t(1) << (f.man_bits - 1)))
                           : (f.sign_mask() - 1);
  if (std::isnan(x)) return sign | nan;
  auto overflowed = [&]() -> uint32_t {
    switch (overflow) {
      case RefOverflow::Inf: return sign | f.inf_mag();
      case RefOverflow::Max: return sign | f.max_mag();
      case RefOverflow::Nan: return sign | nan;
    }
    return 0;
  };
  if (std::isinf(x)) return overflowed();

  double a = std::fabs(x);
  // The first value greater than a; its predecessor is the largest value <= a.
  size_t hi = size_t(std::upper_bound(table.begin(), table.end(), a) - table.begin());
  size_t lo = hi - 1;
  if (table[lo] == a) return sign | uint32_t(lo);
  // Past the largest finite value the neighbour above is the value the exponent range would
  // have next (max plus one step at max's spacing).
  double lo_v = table[lo];
  double hi_v = hi < table.size() ? table[hi] : table[lo] + (table[lo] - table[lo - 1]);
  double mid = lo_v / 2 + hi_v / 2;  // exact: both have few significant bits
  bool up = a > mid || (a == mid && (lo & 1));
  if (!up) return sign | uint32_t(lo);
  if (hi >= table.size()) return overflowed();
  return sign | uint32_t(hi);
}

/// The conversion under test, reduced to "encoding bits <-> double".
struct Codec {
  RefFormat fmt;
  RefOverflow overflow;
  std::function<uint32_t(double)> encode;
  std::function<double(uint32_t)> decode;
};

/// Counts mismatches and reports the first few, so one bug does not print 65536 lines.
class MismatchLog {
public:
  explicit MismatchLog(std::string what) : what_(std::move(what)) {}
  void expect(bool ok, const std::string& detail) {
    if (ok) return;
    if (++count_ <= 8) FAIL_CHECK(what_ << ": " << detail);
  }
  int count() const { return count_; }

private:
  std::string what_;
  int count_ = 0;
};

inline std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

inline std::string show(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.17g (%a)", v, v);
  return buf;
}

/// Same encoding, or both NaN with the same sign.
inline bool same_bits(const RefFormat& f, uint32_t got, uint32_t want) {
  if (f.is_nan(want)) return f.is_nan(got) && (got & f.sign_mask()) == (want & f.sign_mask());
  return got == want;
}

/// Every encoding decodes to the reference value (NaN: NaN with the same sign).
inline void check_decode_all(const Codec& c) {
  MismatchLog log(std::string(c.fmt.name) + " decode");
  for (uint32_t b = 0; b < c.fmt.count(); ++b) {
    double got = c.decode(b);
    double want = ref_decode(c.fmt, b);
    bool ok = std::isnan(want) ? (std::isnan(got) && std::signbit(got) == std::signbit(want))
                               : (got == want && std::signbit(got) == std::signbit(want));
    log.expect(ok, hex(b) + " -> " + show(got) + ", expected " + show(want));
  }
  CHECK(log.count() == 0);
}

/// decode then encode gives the same bits back; NaNs stay NaN with their sign, and Inf
/// becomes max under saturation.
inline void check_round_trip_all(const Codec& c) {
  MismatchLog log(std::string(c.fmt.name) + " round trip");
  for (uint32_t b = 0; b < c.fmt.count(); ++b) {
    uint32_t back = c.encode(c.decode(b));
    uint32_t want = b;
    // A saturating conversion turns Inf into max, so Inf does not survive a round trip.
    if (c.fmt.is_inf(b) && c.overflow == RefOverflow::Max) {
      want = (b & c.fmt.sign_mask()) | c.fmt.max_mag();
    }
    bool ok = c.fmt.is_nan(b) ? same_bits(c.fmt, back, b) : back == want;
    log.expect(ok, hex(b) + " -> " + hex(back));
  }
  CHECK(log.count() == 0);
}

/// For every pair of adjacent encodings of one sign (and the pair "max, one step past max"),
/// the exact midpoint rounds to the even one and its float64 neighbours to the nearer one.
inline void check_midpoints_all(const Codec& c) {
  const RefFormat& f = c.fmt;
  MismatchLog log(std::string(f.name) + " midpoints");
  std::vector<double> table = ref_table(f);
  uint32_t overflow_bits = 0;
  switch (c.overflow) {
    case RefOverflow::Inf: overflow_bits = f.inf_mag(); break;
    case RefOverflow::Max: overflow_bits = f.max_mag(); break;
    case RefOverflow::Nan: overflow_bits = f.sign_mask() - 1; break;  // only used for non-IEEE
  }
  if (c.overflow == RefOverflow::Nan && f.has_inf) {
    overflow_bits = f.inf_mag() | (uint32_t(1) << (f.man_bits - 1));
  }
  for (uint32_t sign : {uint32_t(0), f.sign_mask()}) {
    double s = sign ? -1.0 : 1.0;
    for (uint32_t m = 0; m <= f.max_mag(); ++m) {
      bool past_max = m == f.max_mag();
      double lo = table[m];
      double hi = past_max ? lo + (lo - table[m - 1]) : table[m + 1];
      double mid = s * (lo / 2 + hi / 2);
      uint32_t lo_bits = sign | m;
      uint32_t hi_bits = past_max ? (sign | overflow_bits) : (sign | (m + 1));
      uint32_t even_bits = (m & 1) == 0 ? lo_bits : hi_bits;
      // Just inside the midpoint, towards zero and away from it.
      double below = std::nextafter(mid, 0.0);
      double above = std::nextafter(mid, s * std::numeric_limits<double>::infinity());
      uint32_t got_mid = c.encode(mid);
      uint32_t got_below = c.encode(below);
      uint32_t got_above = c.encode(above);
      log.expect(same_bits(f, got_mid, even_bits),
                 "midpoint " + show(mid) + " -> " + hex(got_mid) + ", expected " + hex(even_bits));
      log.expect(same_bits(f, got_below, lo_bits),
                 "below midpoint " + show(below) + " -> " + hex(got_below) + ", expected " +
                     hex(lo_bits));
      log.expect(same_bits(f, got_above, hi_bits),
                 "above midpoint " + show(above) + " -> " + hex(got_above) + ", expected " +
                     hex(hi_bits));
      // The reference model must agree with the expectation too, or the test is wrong.
      log.expect(same_bits(f, ref_round(f, table, mid, c.overflow), even_bits),
                 "reference disagrees at " + show(mid));
    }
  }
  CHECK(log.count() == 0);
}

/// Random float64s spread over the format's range (and beyond) agree with ref_round.
inline void check_random(const Codec& c, int samples, uint64_t seed) {
  const RefFormat& f = c.fmt;
  MismatchLog log(std::string(f.name) + " random");
  std::vector<double> table = ref_table(f);
  std::mt19937_64 rng(seed);
  int emin = 1 - f.bias - f.man_bits - 3;
  int emax = int(f.top_exp()) - f.bias + 3;
  std::uniform_int_distribution<int> exp_dist(emin, emax);
  for (int i = 0; i < samples; ++i) {
    uint64_t r = rng();
    double x;
    if (i % 16 == 0) {
      // Raw bit patterns: any float64 at all, NaN and Inf included.
      uint64_t bits = rng();
      std::memcpy(&x, &bits, sizeof x);
    } else {
      // A random 52-bit significand at a random exponent near the format's range.
      double sig = 1.0 + std::ldexp(double(r >> 12), -52);
      x = std::ldexp(sig, exp_dist(rng));
      if (r & 1) x = -x;
    }
    uint32_t want = ref_round(f, table, x, c.overflow);
    uint32_t got = c.encode(x);
    log.expect(same_bits(f, got, want), show(x) + " -> " + hex(got) + ", expected " + hex(want));
  }
  CHECK(log.count() == 0);
}

/// Specials: signed zeros, Inf, NaN, values far past the range, float64 subnormals.
inline void check_specials(const Codec& c) {
  const RefFormat& f = c.fmt;
  std::vector<double> table = ref_table(f);
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inputs[] = {0.0, -0.0, inf, -inf, nan, -nan, 1e300, -1e300,
                           std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::denorm_min(),
                           -std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::min(), 1.0, -1.0};
  for (double x : inputs) {
    CAPTURE(show(x));
    uint32_t want = ref_round(f, table, x, c.overflow);
    CHECK(same_bits(f, c.encode(x), want));
  }
  CHECK(c.encode(0.0) == 0);
  CHECK(c.encode(-0.0) == f.sign_mask());
  // Tiny values keep their sign when they round to zero.
  CHECK(c.encode(-std::numeric_limits<double>::denorm_min()) == f.sign_mask());
  CHECK(f.is_nan(c.encode(nan)));
  CHECK((c.encode(-nan) & f.sign_mask()) != 0);
}

}  // namespace tegula::testing
