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
// Every narrow float dtype is "sign (or none), exponent field, mantissa field" and differs
// only in the widths, the bias, whether field 0 holds subnormals, and what the top of the
// range holds (FloatFormat). One encoder and one decoder serve all of them, so the rounding
// logic exists (and is tested) once. The encoder works directly on the bits of the float64,
// which makes it a single correct rounding: going through float32 first would round twice.

constexpr FloatFormat kF16{5, 10, 15, true, true, FloatSpecials::Ieee};
constexpr FloatFormat kBF16{8, 7, 127, true, true, FloatSpecials::Ieee};
constexpr FloatFormat kTF32{8, 10, 127, true, true, FloatSpecials::Ieee};
constexpr FloatFormat kE4M3{4, 3, 7, true, true, FloatSpecials::NanAllOnes};
constexpr FloatFormat kE5M2{5, 2, 15, true, true, FloatSpecials::Ieee};
constexpr FloatFormat kE4M3FNUZ{4, 3, 8, true, true, FloatSpecials::NanNegZero};
constexpr FloatFormat kE5M2FNUZ{5, 2, 16, true, true, FloatSpecials::NanNegZero};
constexpr FloatFormat kE2M3{2, 3, 1, true, true, FloatSpecials::None};
constexpr FloatFormat kE3M2{3, 2, 3, true, true, FloatSpecials::None};
constexpr FloatFormat kE2M1{2, 1, 1, true, true, FloatSpecials::None};
constexpr FloatFormat kE8M0{8, 0, 127, false, false, FloatSpecials::NanAllOnes};
constexpr FloatFormat kUE4M3{4, 3, 7, false, true, FloatSpecials::NanAllOnes};

/// Round |x| (finite, non-negative) to the format with RNE and an unbounded exponent range
/// above; the result is the magnitude bits, which may exceed max_magnitude (the caller
/// decides what overflow means). A format without subnormals gives 0, its smallest value,
/// for everything below it.
uint64_t round_magnitude(const FloatFormat& f, double a) {
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
  int emin = f.min_normal_exponent();
  if (!f.subnormals && e < emin) return 0;
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
  return (uint64_t(e + f.bias) << f.man_bits) + (q - implicit);
}

/// The bits overflow gives: max when saturating or when the format has nothing else, else
/// Inf (IEEE formats) or the NaN.
uint64_t overflow_bits(const FloatFormat& f, uint64_t sign, Fp8Mode mode) {
  if (mode == Fp8Mode::Saturating || f.specials == FloatSpecials::None) return sign | f.max_magnitude();
  if (f.specials == FloatSpecials::Ieee) return sign | f.inf_bits();
  if (f.specials == FloatSpecials::NanNegZero) return f.nan_bits();
  return sign | f.nan_bits();
}

}  // namespace

uint64_t FloatFormat::max_magnitude() const {
  switch (specials) {
    case FloatSpecials::Ieee: return inf_bits() - 1;
    case FloatSpecials::NanAllOnes: return magnitude_mask() - 1;
    case FloatSpecials::NanNegZero:
    case FloatSpecials::None: return magnitude_mask();
  }
  return 0;
}

uint64_t FloatFormat::nan_bits() const {
  switch (specials) {
    case FloatSpecials::Ieee: return inf_bits() | (uint64_t(1) << (man_bits - 1));
    case FloatSpecials::NanAllOnes: return magnitude_mask();
    case FloatSpecials::NanNegZero: return uint64_t(1) << (exp_bits + man_bits);
    case FloatSpecials::None: return 0;
  }
  return 0;
}

uint64_t FloatFormat::inf_bits() const {
  if (specials != FloatSpecials::Ieee) return 0;
  return ((uint64_t(1) << exp_bits) - 1) << man_bits;
}

const FloatFormat* float_format(DType t) {
  switch (t) {
    case DType::TF32: return &kTF32;
    case DType::F16: return &kF16;
    case DType::BF16: return &kBF16;
    case DType::E4M3: return &kE4M3;
    case DType::E5M2: return &kE5M2;
    case DType::E4M3FNUZ: return &kE4M3FNUZ;
    case DType::E5M2FNUZ: return &kE5M2FNUZ;
    case DType::E2M3: return &kE2M3;
    case DType::E3M2: return &kE3M2;
    case DType::E2M1: return &kE2M1;
    case DType::E8M0: return &kE8M0;
    case DType::UE4M3: return &kUE4M3;
    case DType::F64:
    case DType::F32:
    case DType::I8:
    case DType::U8:
    case DType::I32:
    case DType::Bool: return nullptr;
  }
  return nullptr;
}

uint64_t float_encode(const FloatFormat& f, double x, Fp8Mode mode) {
  bool negative = std::signbit(x);
  uint64_t sign = negative ? f.sign_bit() : 0;
  if (std::isnan(x)) {
    if (f.specials == FloatSpecials::None) return f.max_magnitude();
    if (f.specials == FloatSpecials::NanNegZero) return f.nan_bits();
    return sign | f.nan_bits();
  }
  uint64_t mag = std::isinf(x) ? f.max_magnitude() + 1 : round_magnitude(f, std::fabs(x));
  // An unsigned format has no negative values: those that do not round to zero (e8m0 has
  // no zero, so all of them) become the lowest value, or NaN.
  if (!f.sign && negative && x != 0 && (mag != 0 || !f.subnormals)) return mode == Fp8Mode::Saturating ? 0 : f.nan_bits();
  if (mag > f.max_magnitude()) return overflow_bits(f, sign, mode);
  if (f.specials == FloatSpecials::NanNegZero && mag == 0) return 0;  // no -0
  return sign | mag;
}

double float_decode(const FloatFormat& f, uint64_t b) {
  b &= (uint64_t(1) << f.bits()) - 1;
  bool neg = (b & f.sign_bit()) != 0;
  uint64_t mag_bits = b & f.magnitude_mask();
  uint64_t exp_field = mag_bits >> f.man_bits;
  uint64_t man = mag_bits & ((uint64_t(1) << f.man_bits) - 1);
  double nan = std::numeric_limits<double>::quiet_NaN();
  switch (f.specials) {
    case FloatSpecials::Ieee:
      if (exp_field == (uint64_t(1) << f.exp_bits) - 1) {
        double v = man == 0 ? std::numeric_limits<double>::infinity() : nan;
        return neg ? -v : v;
      }
      break;
    case FloatSpecials::NanAllOnes:
      if (mag_bits == f.magnitude_mask()) return neg ? -nan : nan;
      break;
    case FloatSpecials::NanNegZero:
      if (b == f.nan_bits()) return nan;
      break;
    case FloatSpecials::None: break;
  }
  double mag;
  if (exp_field == 0 && f.subnormals) {
    mag = std::ldexp(double(man), 1 - f.bias - f.man_bits);
  } else {
    uint64_t sig = man | (uint64_t(1) << f.man_bits);
    mag = std::ldexp(double(sig), int(exp_field) - f.bias - f.man_bits);
  }
  return neg ? -mag : mag;
}

namespace {

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

bool dtype_is_float(DType t) { return t == DType::F64 || t == DType::F32 || float_format(t) != nullptr; }

bool dtype_is_int(DType t) { return t == DType::I8 || t == DType::U8 || t == DType::I32; }

double dtype_max(DType t) {
  if (const FloatFormat* f = float_format(t)) return float_decode(*f, f->max_magnitude());
  switch (t) {
    case DType::F64: return DBL_MAX;
    case DType::F32: return FLT_MAX;
    case DType::I8: return 127;
    case DType::U8: return 255;
    case DType::I32: return 2147483647.0;
    case DType::Bool: return 1;
    default: return 0;
  }
}

double dtype_lowest(DType t) {
  if (const FloatFormat* f = float_format(t)) return f->sign ? -dtype_max(t) : float_decode(*f, 0);
  switch (t) {
    case DType::F64:
    case DType::F32: return -dtype_max(t);
    case DType::I8: return -128;
    case DType::I32: return -2147483648.0;
    default: return 0;  // u8, bool
  }
}

// --- Bit-level conversions ----------------------------------------------------------------

// f16, bf16 and tf32 are IEEE formats: overflow is Inf whatever the mode.
uint16_t f16_from_double(double x) { return uint16_t(float_encode(kF16, x, Fp8Mode::NonSaturating)); }
double f16_to_double(uint16_t bits) { return float_decode(kF16, bits); }

uint16_t bf16_from_double(double x) { return uint16_t(float_encode(kBF16, x, Fp8Mode::NonSaturating)); }
double bf16_to_double(uint16_t bits) { return float_decode(kBF16, bits); }

uint32_t tf32_from_double(double x) {
  // tf32 is the top 19 bits of a binary32; the encoder produces those 19 bits.
  return uint32_t(float_encode(kTF32, x, Fp8Mode::NonSaturating)) << 13;
}

uint8_t e4m3_from_double(double x, Fp8Mode mode) { return uint8_t(float_encode(kE4M3, x, mode)); }
double e4m3_to_double(uint8_t bits) { return float_decode(kE4M3, bits); }

uint8_t e5m2_from_double(double x, Fp8Mode mode) { return uint8_t(float_encode(kE5M2, x, mode)); }
double e5m2_to_double(uint8_t bits) { return float_decode(kE5M2, bits); }

// --- Elements -----------------------------------------------------------------------------

double load_element(DType t, const void* p) {
  switch (t) {
    case DType::F64: return load_as<double>(p);
    case DType::F32: return double(load_as<float>(p));
    case DType::TF32: return double(load_as<float>(p));
    case DType::F16: return f16_to_double(load_as<uint16_t>(p));
    case DType::BF16: return bf16_to_double(load_as<uint16_t>(p));
    case DType::E4M3:
    case DType::E5M2:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return float_decode(*float_format(t), load_as<uint8_t>(p));
    case DType::I8: return double(load_as<int8_t>(p));
    case DType::U8: return double(load_as<uint8_t>(p));
    case DType::I32: return double(load_as<int32_t>(p));
    case DType::Bool: return load_as<uint8_t>(p) != 0 ? 1.0 : 0.0;
  }
  return 0;
}

void store_element(DType t, double x, void* p, Fp8Mode mode) {
  switch (t) {
    case DType::F64: store_as<double>(p, x); return;
    // A float64 -> float32 conversion is one IEEE rounding (RNE in the default environment).
    case DType::F32: store_as<float>(p, float(x)); return;
    case DType::TF32: store_as<uint32_t>(p, tf32_from_double(x)); return;
    case DType::F16: store_as<uint16_t>(p, f16_from_double(x)); return;
    case DType::BF16: store_as<uint16_t>(p, bf16_from_double(x)); return;
    case DType::E4M3:
    case DType::E5M2:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: store_as<uint8_t>(p, uint8_t(float_encode(*float_format(t), x, mode))); return;
    case DType::I8: store_as<int8_t>(p, int8_t(round_to_int_range(x, -128, 127))); return;
    case DType::U8: store_as<uint8_t>(p, uint8_t(round_to_int_range(x, 0, 255))); return;
    case DType::I32:
      store_as<int32_t>(p, int32_t(round_to_int_range(x, -2147483648.0, 2147483647.0)));
      return;
    case DType::Bool: store_as<uint8_t>(p, (x != 0 || std::isnan(x)) ? 1 : 0); return;
  }
}

double round_to_dtype(DType t, double x, Fp8Mode mode) {
  alignas(8) unsigned char buf[8];
  store_element(t, x, buf, mode);
  return load_element(t, buf);
}

}  // namespace tegula
