/// \file
/// The element types of tegula and exact conversions between them and float64.
///
/// Every value the reference interpreter computes is a float64; storing it into a buffer of
/// another dtype rounds it with the rules below. These rules are the definition that every
/// backend is checked against.
///
/// - f64, f32: IEEE binary64/binary32, round-to-nearest-even (RNE).
/// - tf32: binary32 storage whose low 13 mantissa bits are zero (1 sign, 8 exponent, 10
///   mantissa bits); RNE on the 10-bit mantissa. Inf and NaN as in f32.
/// - f16: IEEE binary16, RNE, overflow to Inf, subnormals kept.
/// - bf16: the top 16 bits of binary32, RNE, overflow to Inf, subnormals kept.
/// - e4m3 (OCP FP8 "E4M3FN"): bias 7, no infinities, one NaN per sign (S.1111.111), max 448,
///   subnormals kept.
/// - e5m2 (OCP FP8 "E5M2"): bias 15, IEEE-like with Inf and NaN, max 57344.
///   For both FP8 formats, OCP "saturating" conversion (the default, and what a store does):
///   finite values beyond the largest normal and +-Inf become +-max; NaN stays NaN.
///   "Non-saturating" conversion: overflow becomes NaN (e4m3) or +-Inf (e5m2), and Inf
///   becomes NaN (e4m3) or stays Inf (e5m2). "Overflow" is judged after RNE rounding, as in
///   the OCP OFP8 spec (rev. 1.0, section 5.2 and table 3): 464 rounds to e4m3 448 (a tie
///   to the even mantissa), while 61440 rounds past e5m2 57344 and so overflows.
/// - NaN converts to a NaN of the destination with the input's sign (the canonical quiet NaN
///   where there are several; payloads are not kept).
/// - e4m3fnuz, e5m2fnuz (the FP8 of AMD's gfx942, "FNUZ": finite, no negative zero): bias 8
///   and 16, no infinities, no -0, one NaN: the encoding of -0 (0x80). Max 240 and 57344.
///   -0 and negative values that round to zero become +0. Saturating: overflow and +-Inf
///   become +-max; non-saturating: they become the NaN. Any NaN becomes 0x80.
/// - e2m3, e3m2 (OCP MX FP6) and e2m1 (OCP MX FP4): bias 1, 3 and 1, every encoding finite
///   (no Inf, no NaN). Max 7.5, 28 and 6. Stored one element per byte in the low 6 or 4 bits
///   (the unpacked form tcgen05's f8f6f4 kind reads; packed data lives in u8 tensors). A load
///   ignores the upper bits; a store that rounds a value writes them zero, and a copy between
///   two tiles of the same dtype may carry them over (it moves encodings, as for NaN
///   payloads). Overflow and +-Inf become +-max in
///   both modes (nothing else is representable); NaN becomes +max, as PTX's cvt.satfinite
///   does.
/// - e8m0 (OCP MX scale): 8 exponent bits, bias 127, no sign, no mantissa, no zero: code c is
///   2^(c - 127) for c in 0..254, 255 is NaN. A value rounds to the nearer power of two in
///   linear distance (a tie, 1.5 * 2^e, goes up: with no mantissa bits the even significand
///   is the next power); below 2^-127 (zero included) it becomes 2^-127. Overflow: 2^127
///   (saturating) or NaN (non-saturating); negative values: 2^-127 or NaN; NaN: NaN.
/// - ue4m3 (the unsigned e4m3 of NVFP4's block scales): e4m3 without the sign bit, stored in
///   the low 7 bits (bit 7 as the upper bits of fp6 and fp4 above); 0x7f is NaN, max 448.
///   Negative values that round to a non-zero magnitude become 0 (saturating) or NaN
///   (non-saturating); -0 becomes 0.
/// - i8, u8, i32: RNE to an integer, then saturation to the type's range; NaN becomes 0.
/// - bool: any non-zero value (NaN included) is true (1), zero is false (0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tegula {

/// X(Enumerator, name in text, storage bytes). New dtypes are appended: an executable stores a
/// dtype as its index in this list.
#define TG_FOR_EACH_DTYPE(X) \
  X(F64, "f64", 8)           \
  X(F32, "f32", 4)           \
  X(TF32, "tf32", 4)         \
  X(F16, "f16", 2)           \
  X(BF16, "bf16", 2)         \
  X(E4M3, "e4m3", 1)         \
  X(E5M2, "e5m2", 1)         \
  X(I8, "i8", 1)             \
  X(U8, "u8", 1)             \
  X(I32, "i32", 4)           \
  X(Bool, "bool", 1)          \
  X(E4M3FNUZ, "e4m3fnuz", 1) \
  X(E5M2FNUZ, "e5m2fnuz", 1) \
  X(E2M3, "e2m3", 1)         \
  X(E3M2, "e3m2", 1)         \
  X(E2M1, "e2m1", 1)         \
  X(E8M0, "e8m0", 1)         \
  X(UE4M3, "ue4m3", 1)

enum class DType : uint8_t {
#define TG_DTYPE_ENUM(e, name, bytes) e,
  TG_FOR_EACH_DTYPE(TG_DTYPE_ENUM)
#undef TG_DTYPE_ENUM
};

/// How many dtypes the list has (counted from it, so it cannot fall behind).
#define TG_DTYPE_COUNT(e, name, bytes) +1
inline constexpr int kNumDTypes = 0 TG_FOR_EACH_DTYPE(TG_DTYPE_COUNT);
#undef TG_DTYPE_COUNT

const char* dtype_name(DType t);
std::optional<DType> parse_dtype(std::string_view name);
/// Bytes one element occupies in memory (tf32 is stored in 4 bytes).
size_t dtype_size(DType t);
bool dtype_is_float(DType t);  ///< f64, f32 and every narrow float (float_format is not null)
bool dtype_is_int(DType t);    ///< i8, u8, i32
/// Largest finite value of a float dtype, or the largest value of an integer dtype.
double dtype_max(DType t);
/// Smallest value: -max for signed floats, the minimum for integers, 0 for u8, bool and
/// ue4m3, 2^-127 for e8m0.
double dtype_lowest(DType t);

/// What a store does with values beyond a narrow float's range (the rules above): the
/// default clamps to the largest finite value; non-saturating gives Inf or NaN where the
/// format has one. A kernel chooses with its `saturate` attribute.
enum class Fp8Mode : uint8_t { Saturating, NonSaturating };

/// What a narrow float format has at the top of its range, the data every backend's
/// encoder and decoder are written from.
enum class FloatSpecials : uint8_t {
  Ieee,        ///< top exponent field: mantissa 0 is Inf, anything else NaN (f16, bf16, e5m2)
  NanAllOnes,  ///< no Inf; only the all-ones magnitude is NaN (e4m3, ue4m3, e8m0)
  NanNegZero,  ///< no Inf, no -0; the encoding of -0 is the one NaN (FNUZ)
  None,        ///< every encoding is a finite number (e2m3, e3m2, e2m1)
};

/// A narrow float format as data: sign (or none), exponent and mantissa widths, bias, and
/// whether exponent field 0 holds subnormals (every format but e8m0, whose code 0 is the
/// normal value 2^-127). Value of a normal encoding: (1 + m / 2^man_bits) * 2^(e - bias);
/// subnormal: (m / 2^man_bits) * 2^(1 - bias).
struct FloatFormat {
  int exp_bits;
  int man_bits;
  int bias;
  bool sign;
  bool subnormals;
  FloatSpecials specials;

  int bits() const { return (sign ? 1 : 0) + exp_bits + man_bits; }
  uint64_t sign_bit() const { return sign ? uint64_t(1) << (exp_bits + man_bits) : 0; }
  /// The magnitude bits (all but the sign).
  uint64_t magnitude_mask() const { return (uint64_t(1) << (exp_bits + man_bits)) - 1; }
  /// The magnitude bits of the largest finite value.
  uint64_t max_magnitude() const;
  /// The canonical NaN's bits (sign clear; for NanNegZero the sign bit alone); 0 if none.
  uint64_t nan_bits() const;
  /// The bits of +Inf (Ieee only; 0 otherwise).
  uint64_t inf_bits() const;
  /// The smallest exponent field value's unbiased exponent for normals.
  int min_normal_exponent() const { return subnormals ? 1 - bias : -bias; }
};

/// The format of a narrow float dtype (tf32, f16, bf16 and every 8-bit-or-less float);
/// null for f64, f32, integers and bool.
const FloatFormat* float_format(DType t);
/// Round `x` to format `f` (the rules above); the result's bits, sign included.
uint64_t float_encode(const FloatFormat& f, double x, Fp8Mode mode);
/// The value of bits `b` of format `f` (bits above f.bits() are ignored).
double float_decode(const FloatFormat& f, uint64_t b);

/// The value a float64 becomes when stored into `t` (see the rules above).
double round_to_dtype(DType t, double x, Fp8Mode mode = Fp8Mode::Saturating);
/// Decode one element of `t` stored at `p` into a float64 (exact for every dtype).
double load_element(DType t, const void* p);
/// Round `x` to `t` and write it at `p` (dtype_size(t) bytes).
void store_element(DType t, double x, void* p, Fp8Mode mode = Fp8Mode::Saturating);

// Bit-level conversions, exact from float64 (no double rounding through float32).
uint16_t f16_from_double(double x);
double f16_to_double(uint16_t bits);
uint16_t bf16_from_double(double x);
double bf16_to_double(uint16_t bits);
uint32_t tf32_from_double(double x);  ///< f32 bits with the low 13 mantissa bits zero
uint8_t e4m3_from_double(double x, Fp8Mode mode = Fp8Mode::Saturating);
double e4m3_to_double(uint8_t bits);
uint8_t e5m2_from_double(double x, Fp8Mode mode = Fp8Mode::Saturating);
double e5m2_to_double(uint8_t bits);

}  // namespace tegula
