#include "conformance/Inputs.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/Random.h"

namespace tegula::conformance {
namespace {

/// Bits of the format: mantissa bits and the minimum normal exponent.
struct FloatShape {
  int man_bits;
  int emin;
};

FloatShape float_shape(DType d) {
  switch (d) {
    case DType::F64: return {52, -1022};
    case DType::F32: return {23, -126};
    case DType::TF32: return {10, -126};
    case DType::F16: return {10, -14};
    case DType::BF16: return {7, -126};
    case DType::E4M3: return {3, -6};
    case DType::E5M2: return {2, -14};
    default: return {0, 0};
  }
}

bool exact_in(DType d, double v) { return round_to_dtype(d, v) == v; }

double lattice(DType d, uint64_t r, bool small) {
  if (d == DType::Bool) return double(r & 1);
  if (dtype_is_int(d)) {
    if (small) return d == DType::U8 ? double(r & 3) : double(int64_t(r & 3) - 1);
    return d == DType::U8 ? double(r % 9) : double(int64_t(r % 17) - 8);
  }
  if (small) return (double(r & 3) - 1) / 2;
  // The 16-value lattice where the dtype holds it exactly, else {-1.5 .. 2} step 0.5.
  double wide = (double(r & 15) - 4) / 2;
  if (exact_in(d, 5.5) && exact_in(d, 4.5)) return wide;
  return (double(r & 7) - 3) / 2;
}

double random_value(DType d, Rng& rng) {
  switch (d) {
    case DType::Bool: return double(rng.next() & 1);
    case DType::I8: return double(rng.integer(-128, 127));
    case DType::U8: return double(rng.integer(0, 255));
    // Products (and sums of 64 of them) stay inside i32: random cases test arithmetic, the
    // special values test saturation.
    case DType::I32: return double(rng.integer(-4096, 4096));
    default: return rng.uniform(-1.0, 1.0);
  }
}

double positive_value(DType d, Rng& rng) {
  if (d == DType::Bool) return 1;
  if (dtype_is_int(d)) return double(rng.integer(1, 100));
  return std::exp2(rng.uniform(-3.0, 3.0));
}

void store(DType d, double v, uint8_t* p) { store_element(d, v, p); }

}  // namespace

double min_normal(DType d) {
  FloatShape s = float_shape(d);
  return std::ldexp(1.0, s.emin);
}

double min_subnormal(DType d) {
  FloatShape s = float_shape(d);
  return std::ldexp(1.0, s.emin - s.man_bits);
}

std::vector<double> special_values(DType d) {
  if (d == DType::Bool) return {0, 1};
  if (dtype_is_int(d)) {
    double hi = dtype_max(d), lo = dtype_lowest(d);
    return {0, 1, hi, lo, hi - 1, lo + 1, 2, double(int64_t(hi) / 2)};
  }
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v = {0.0, -0.0, 1.0, -1.0, inf, -inf, nan, 0.5, -1.5, 2.5, 0.1};
  // This dtype's own boundaries.
  double mx = dtype_max(d);
  v.insert(v.end(), {mx, -mx, min_normal(d), -min_normal(d), min_subnormal(d), -min_subnormal(d)});
  // Other dtypes' boundaries, for conversions: max, three quarters of it, twice it, the
  // smallest normal and subnormal, and half the smallest subnormal (a rounding tie to 0).
  for (DType o : {DType::F32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2}) {
    if (o == d) continue;
    double omax = dtype_max(o);
    v.insert(v.end(), {omax, 0.75 * omax, -2 * omax, min_normal(o), min_subnormal(o) * 1.5});
  }
  // Integer boundaries and ties: what casts to i8, u8 and i32 round and saturate.
  v.insert(v.end(), {127.0, 127.5, -128.5, 255.0, 255.5, 256.0, -129.0, 2147483647.0, -2147483649.0, 3.5, -2.5});
  return v;
}

std::vector<uint8_t> poison_element(DType d) {
  switch (d) {
    case DType::F64: return {0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xf4, 0x7f};  // sNaN, payload
    case DType::F32:
    case DType::TF32: return {0xa5, 0xa5, 0xa5, 0x7f};  // sNaN (and not a tf32 encoding)
    case DType::F16: return {0xa5, 0x7d};              // sNaN, payload 0x1a5
    case DType::BF16: return {0xa5, 0x7f};             // sNaN, payload 0x25
    case DType::E4M3: return {0x7f};                   // its one NaN: nothing else is free
    case DType::E5M2: return {0x7d};                   // a NaN other than the canonical 0x7e
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ: return {0x80};               // their one NaN
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::UE4M3: return {0xa5};                  // upper bits set: not a stored encoding
    case DType::E8M0: return {0xff};                   // its NaN
    case DType::I8:
    case DType::U8:
    case DType::Bool: return {0xa5};                   // not a bool encoding
    case DType::I32: return {0xa5, 0xa5, 0xa5, 0xa5};
  }
  return {0xa5};
}

std::vector<uint8_t> poison(DType d, int64_t count) {
  std::vector<uint8_t> one = poison_element(d);
  std::vector<uint8_t> out(size_t(count) * one.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = one[i % one.size()];
  return out;
}

uint64_t case_seed(uint64_t run_seed, const std::string& case_name, int tensor) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : case_name) h = (h ^ c) * 1099511628211ull;
  Rng mix(run_seed ^ h ^ (uint64_t(tensor + 1) * 0x9E3779B97F4A7C15ull));
  return mix.next();
}

std::vector<uint8_t> make_values(DType d, Values values, int64_t count, uint64_t seed, int phase, int64_t index_limit) {
  size_t bytes = dtype_size(d);
  std::vector<uint8_t> out(size_t(count) * bytes);
  Rng rng(seed);
  std::vector<double> specials;
  if (values == Values::Special) {
    // Distinct encodings only: many boundaries of other dtypes round to the same value here.
    std::vector<uint8_t> seen;
    std::vector<uint8_t> enc(bytes);
    for (double x : special_values(d)) {
      store(d, x, enc.data());
      bool dup = false;
      for (size_t k = 0; k + bytes <= seen.size() && !dup; k += bytes) dup = std::memcmp(&seen[k], enc.data(), bytes) == 0;
      if (dup) continue;
      seen.insert(seen.end(), enc.begin(), enc.end());
      specials.push_back(x);
    }
  }
  int64_t offset = 0;  // Values::Offsets: the previous element
  for (int64_t i = 0; i < count; ++i) {
    uint8_t* p = out.data() + size_t(i) * bytes;
    switch (values) {
      case Values::Lattice: store(d, lattice(d, rng.next(), false), p); break;
      case Values::SmallLattice: store(d, lattice(d, rng.next(), true), p); break;
      case Values::Random: store(d, random_value(d, rng), p); break;
      case Values::Positive: store(d, positive_value(d, rng), p); break;
      case Values::NonZero: {
        double v = random_value(d, rng);
        if (round_to_dtype(d, v) == 0) v = 1;
        store(d, v, p);
        break;
      }
      case Values::SignedZeros: store(d, (rng.next() & 1) ? -0.0 : 0.0, p); break;
      case Values::Special: {
        int64_t n = int64_t(specials.size());
        if (i % 3 == 0) {
          int64_t j = i / 3;
          for (int k = 0; k < phase; ++k) j /= n;
          store(d, specials[size_t(j % n)], p);
        } else {
          store(d, random_value(d, rng), p);
        }
        break;
      }
      case Values::Indices: store(d, double(rng.integer(0, index_limit > 0 ? index_limit - 1 : 0)), p); break;
      case Values::Offsets: {
        // Segment i (from offset i - 1 to offset i) is empty when i % 4 == 1, one long when
        // i % 4 == 2, else of a random length around twice the mean; clamped to the limit.
        int64_t mean = count > 1 ? std::max<int64_t>(1, index_limit / (count - 1)) : 1;
        int64_t length = i % 4 == 1 ? 0 : i % 4 == 2 ? 1 : rng.integer(2, std::max<int64_t>(2, 2 * mean));
        offset = i == 0 ? 0 : std::min(index_limit, offset + length);
        store(d, double(offset), p);
        break;
      }
      case Values::Bits: {
        if (d == DType::Bool) {
          store(d, double(rng.next() & 1), p);
          break;
        }
        uint64_t r = rng.next();
        std::memcpy(p, &r, bytes);
        if (d == DType::TF32) {
          uint32_t b;
          std::memcpy(&b, p, 4);
          b &= ~uint32_t(0x1fff);
          std::memcpy(p, &b, 4);
        }
        break;
      }
    }
  }
  return out;
}

const char* values_name(Values v) {
  switch (v) {
    case Values::Lattice: return "lattice";
    case Values::SmallLattice: return "small_lattice";
    case Values::Random: return "random";
    case Values::Positive: return "positive";
    case Values::NonZero: return "nonzero";
    case Values::Special: return "special";
    case Values::SignedZeros: return "signed_zeros";
    case Values::Indices: return "indices";
    case Values::Offsets: return "offsets";
    case Values::Bits: return "bits";
  }
  return "?";
}

}  // namespace tegula::conformance
