#include "core/DType.h"

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tegula {

namespace {

// --- The generic minifloat codec --------------------------------------------------------
//
// Every narrow float dtype (f16, bf16, tf32, e4m3, e5m2) is "sign, exponent field, mantissa
// field" and differs only in the widths, the bias and how the top exponent field is used.
// One encoder and one decoder parameterised by MiniFormat serve all of them, so the rounding
// logic exists (and is tested) once. The encoder works directly on the bits of the float64,
// which makes it a single correct rounding: going through float32 first would round twice.

enum class NanStyle : uint8_t {
  Ieee,     ///< exponent field all ones: mantissa 0 is Inf, anything else is NaN
  AllOnes,  ///< only exponent and mantissa all ones is NaN; no Inf (OCP E4M3 "FN")
};

enum class Overflow : uint8_t {
  Inf,       ///< IEEE: round to +-Inf, or to NaN in a format without Inf
  Saturate,  ///< clamp to +-max finite (also applied to +-Inf inputs)
};

struct MiniFormat {
  int exp_bits;
  int man_bits;
  int bias;
  NanStyle nan_style;
};

constexpr MiniFormat kF16{5, 10, 15, NanStyle::Ieee};
constexpr MiniFormat kBF16{8, 7, 127, NanStyle::Ieee};
constexpr MiniFormat kTF32{8, 10, 127, NanStyle::Ieee};
constexpr MiniFormat kE4M3{4, 3, 7, NanStyle::AllOnes};
constexpr MiniFormat kE5M2{5, 2, 15, NanStyle::Ieee};

uint64_t sign_bit(const MiniFormat& f) { return uint64_t(1) << (f.exp_bits + f.man_bits); }
uint64_t exp_all_ones(const MiniFormat& f) { return (uint64_t(1) << f.exp_bits) - 1; }

uint64_t inf_magnitude(const MiniFormat& f) { return exp_all_ones(f) << f.man_bits; }

/// The canonical NaN magnitude: the quiet NaN for IEEE-style formats, S.1..1.1..1 otherwise.
uint64_t nan_magnitude(const MiniFormat& f) {
  if (f.nan_style == NanStyle::AllOnes) return (sign_bit(f) - 1);
  return inf_magnitude(f) | (uint64_t(1) << (f.man_bits - 1));
}

/// The magnitude bits of the largest finite value.
uint64_t max_magnitude(const MiniFormat& f) {
  // IEEE: the encoding just below Inf. AllOnes: the encoding just below the one NaN.
  if (f.nan_style == NanStyle::AllOnes) return nan_magnitude(f) - 1;
  return inf_magnitude(f) - 1;
}

/// Round |x| (finite, non-negative) to the format with RNE and an unbounded exponent range
/// above; the result is the magnitude bits, which may exceed max_magnitude (the caller
/// decides what overflow means).
uint64_t round_magnitude(const MiniFormat& f, double a) {
  uint64_t bits = std::bit_cast<uint64_t>(a);
  int biased = int(bits >> 52);
  uint64_t frac = bits & ((uint64_t(1) << 52) - 1);
  if (biased == 0 && frac == 0) return 0;

  // a = sig * 2^scale exactly, with e = floor(log2 a).
  uint64_t sig;
  int scale;
  int e;
  if (biased == 0) {
    sig = frac;
    scale = -1074;
    e = scale + (63 - std::countl_zero(sig));
  } else {
    sig = frac | (uint64_t(1) << 52);
    scale = biased - 1075;
    e = biased - 1023;
  }

  // The target's quantum at this magnitude is 2^ulp_exp; below the smallest normal exponent
  // it stays fixed (subnormals).
  int emin = 1 - f.bias;
  int ulp_exp = (e < emin ? emin : e) - f.man_bits;
  int shift = ulp_exp - scale;

  uint64_t q;
  if (shift <= 0) {
    q = sig << -shift;  // exact: the target has at least as many bits here
  } else if (shift >= 54) {
    q = 0;  // a < 2^(scale+53) <= half a quantum: rounds to zero
  } else {
    q = sig >> shift;
    uint64_t rem = sig & ((uint64_t(1) << shift) - 1);
    uint64_t half = uint64_t(1) << (shift - 1);
    if (rem > half || (rem == half && (q & 1))) ++q;
  }

  // q counts quanta. For subnormals the magnitude bits are q itself; for normals q carries
  // the implicit bit, which the exponent field absorbs. A carry out of the mantissa (q
  // reaching 2^(m+1), or 2^m for subnormals) moves into the exponent field by itself.
  if (e < emin) return q;
  uint64_t implicit = uint64_t(1) << f.man_bits;
  return (uint64_t(e - emin + 1) << f.man_bits) + (q - implicit);
}

uint64_t encode(const MiniFormat& f, double x, Overflow overflow) {
  uint64_t sign = std::signbit(x) ? sign_bit(f) : 0;
  if (std::isnan(x)) return sign | nan_magnitude(f);

  uint64_t mag;
  bool overflowed;
  if (std::isinf(x)) {
    overflowed = true;
    mag = 0;
  } else {
    mag = round_magnitude(f, std::fabs(x));
    overflowed = mag > max_magnitude(f);
  }
  if (!overflowed) return sign | mag;

  if (overflow == Overflow::Saturate) return sign | max_magnitude(f);
  // A format without Inf cannot round to it; NaN is the only non-finite answer left.
  if (f.nan_style == NanStyle::AllOnes) return sign | nan_magnitude(f);
  return sign | inf_magnitude(f);
}

double decode(const MiniFormat& f, uint64_t bits) {
  bool neg = (bits & sign_bit(f)) != 0;
  uint64_t exp_field = (bits >> f.man_bits) & exp_all_ones(f);
  uint64_t man = bits & ((uint64_t(1) << f.man_bits) - 1);
  double mag;
  if (f.nan_style == NanStyle::Ieee && exp_field == exp_all_ones(f)) {
    mag = man == 0 ? std::numeric_limits<double>::infinity()
                   : std::numeric_limits<double>::quiet_NaN();
  } else if (f.nan_style == NanStyle::AllOnes && (bits & ~sign_bit(f)) == nan_magnitude(f)) {
    mag = std::numeric_limits<double>::quiet_NaN();
  } else if (exp_field == 0) {
    mag = std::ldexp(double(man), 1 - f.bias - f.man_bits);
  } else {
    uint64_t sig = man | (uint64_t(1) << f.man_bits);
    mag = std::ldexp(double(sig), int(exp_field) - f.bias - f.man_bits);
  }
  return neg ? -mag : mag;
}

Overflow fp8_overflow(Fp8Mode mode) {
  // Non-saturating: E4M3 has no Inf, so encode() turns Overflow::Inf into NaN for it.
  return mode == Fp8Mode::Saturating ? Overflow::Saturate : Overflow::Inf;
}

// --- Integers and bool ------------------------------------------------------------------

/// Round to the nearest integer, ties to even, without depending on the FP environment's
/// rounding mode (std::nearbyint would).
double round_half_even(double x) {
  double lo = std::floor(x);
  double diff = x - lo;  // exact: |x| < 2^52 here, or x is already an integer
  if (diff > 0.5) return lo + 1;
  if (diff < 0.5) return lo;
  return std::fmod(lo, 2.0) == 0 ? lo : lo + 1;
}

double round_to_int_range(double x, double lo, double hi) {
  if (std::isnan(x)) return 0;
  if (x <= lo) return lo;
  if (x >= hi) return hi;
  double r = round_half_even(x);
  if (r < lo) return lo;
  if (r > hi) return hi;
  return r;
}

template <typename T>
T load_as(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void store_as(void* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

/// The largest finite value of a MiniFormat, from its bits.
double mini_max(const MiniFormat& f) { return decode(f, max_magnitude(f)); }

}  // namespace

// --- Names and properties -----------------------------------------------------------------

const char* dtype_name(DType t) {
  switch (t) {
#define TG_DTYPE_NAME(e, name, bytes) \
  case DType::e: return name;
    TG_FOR_EACH_DTYPE(TG_DTYPE_NAME)
#undef TG_DTYPE_NAME
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view name) {
#define TG_DTYPE_PARSE(e, text, bytes) \
  if (name == text) return DType::e;
  TG_FOR_EACH_DTYPE(TG_DTYPE_PARSE)
#undef TG_DTYPE_PARSE
  return std::nullopt;
}

size_t dtype_size(DType t) {
  switch (t) {
#define TG_DTYPE_SIZE(e, name, bytes) \
  case DType::e: return bytes;
    TG_FOR_EACH_DTYPE(TG_DTYPE_SIZE)
#undef TG_DTYPE_SIZE
  }
  return 0;
}

bool dtype_is_float(DType t) {
  switch (t) {
    case DType::F64:
    case DType::F32:
    case DType::TF32:
    case DType::F16:
    case DType::BF16:
    case DType::E4M3:
    case DType::E5M2: return true;
    default: return false;
  }
}

bool dtype_is_int(DType t) { return t == DType::I8 || t == DType::U8 || t == DType::I32; }

double dtype_max(DType t) {
  switch (t) {
    case DType::F64: return DBL_MAX;
    case DType::F32: return FLT_MAX;
    case DType::TF32: return mini_max(kTF32);
    case DType::F16: return mini_max(kF16);
    case DType::BF16: return mini_max(kBF16);
    case DType::E4M3: return mini_max(kE4M3);
    case DType::E5M2: return mini_max(kE5M2);
    case DType::I8: return 127;
    case DType::U8: return 255;
    case DType::I32: return 2147483647.0;
    case DType::Bool: return 1;
  }
  return 0;
}

double dtype_lowest(DType t) {
  if (dtype_is_float(t)) return -dtype_max(t);
  switch (t) {
    case DType::I8: return -128;
    case DType::I32: return -2147483648.0;
    default: return 0;  // u8, bool
  }
}

// --- Bit-level conversions ----------------------------------------------------------------

uint16_t f16_from_double(double x) { return uint16_t(encode(kF16, x, Overflow::Inf)); }
double f16_to_double(uint16_t bits) { return decode(kF16, bits); }

uint16_t bf16_from_double(double x) { return uint16_t(encode(kBF16, x, Overflow::Inf)); }
double bf16_to_double(uint16_t bits) { return decode(kBF16, bits); }

uint32_t tf32_from_double(double x) {
  // tf32 is the top 19 bits of a binary32; the encoder produces those 19 bits.
  return uint32_t(encode(kTF32, x, Overflow::Inf)) << 13;
}

uint8_t e4m3_from_double(double x, Fp8Mode mode) {
  return uint8_t(encode(kE4M3, x, fp8_overflow(mode)));
}
double e4m3_to_double(uint8_t bits) { return decode(kE4M3, bits); }

uint8_t e5m2_from_double(double x, Fp8Mode mode) {
  return uint8_t(encode(kE5M2, x, fp8_overflow(mode)));
}
double e5m2_to_double(uint8_t bits) { return decode(kE5M2, bits); }

// --- Elements -----------------------------------------------------------------------------

double load_element(DType t, const void* p) {
  switch (t) {
    case DType::F64: return load_as<double>(p);
    case DType::F32: return double(load_as<float>(p));
    case DType::TF32: return double(load_as<float>(p));
    case DType::F16: return f16_to_double(load_as<uint16_t>(p));
    case DType::BF16: return bf16_to_double(load_as<uint16_t>(p));
    case DType::E4M3: return e4m3_to_double(load_as<uint8_t>(p));
    case DType::E5M2: return e5m2_to_double(load_as<uint8_t>(p));
    case DType::I8: return double(load_as<int8_t>(p));
    case DType::U8: return double(load_as<uint8_t>(p));
    case DType::I32: return double(load_as<int32_t>(p));
    case DType::Bool: return load_as<uint8_t>(p) != 0 ? 1.0 : 0.0;
  }
  return 0;
}

void store_element(DType t, double x, void* p) {
  switch (t) {
    case DType::F64: store_as<double>(p, x); return;
    // A float64 -> float32 conversion is one IEEE rounding (RNE in the default environment).
    case DType::F32: store_as<float>(p, float(x)); return;
    case DType::TF32: store_as<uint32_t>(p, tf32_from_double(x)); return;
    case DType::F16: store_as<uint16_t>(p, f16_from_double(x)); return;
    case DType::BF16: store_as<uint16_t>(p, bf16_from_double(x)); return;
    case DType::E4M3: store_as<uint8_t>(p, e4m3_from_double(x)); return;
    case DType::E5M2: store_as<uint8_t>(p, e5m2_from_double(x)); return;
    case DType::I8: store_as<int8_t>(p, int8_t(round_to_int_range(x, -128, 127))); return;
    case DType::U8: store_as<uint8_t>(p, uint8_t(round_to_int_range(x, 0, 255))); return;
    case DType::I32:
      store_as<int32_t>(p, int32_t(round_to_int_range(x, -2147483648.0, 2147483647.0)));
      return;
    case DType::Bool: store_as<uint8_t>(p, (x != 0 || std::isnan(x)) ? 1 : 0); return;
  }
}

double round_to_dtype(DType t, double x) {
  alignas(8) unsigned char buf[8];
  store_element(t, x, buf);
  return load_element(t, buf);
}

}  // namespace tegula
