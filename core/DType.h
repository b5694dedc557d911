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
/// - i8, u8, i32: RNE to an integer, then saturation to the type's range; NaN becomes 0.
/// - bool: any non-zero value (NaN included) is true (1), zero is false (0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tegula {

/// X(Enumerator, name in text, storage bytes)
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
  X(Bool, "bool", 1)

enum class DType : uint8_t {
#define TG_DTYPE_ENUM(e, name, bytes) e,
  TG_FOR_EACH_DTYPE(TG_DTYPE_ENUM)
#undef TG_DTYPE_ENUM
};

inline constexpr int kNumDTypes = 11;

const char* dtype_name(DType t);
std::optional<DType> parse_dtype(std::string_view name);
/// Bytes one element occupies in memory (tf32 is stored in 4 bytes).
size_t dtype_size(DType t);
bool dtype_is_float(DType t);  ///< f64, f32, tf32, f16, bf16, e4m3, e5m2
bool dtype_is_int(DType t);    ///< i8, u8, i32
/// Largest finite value of a float dtype, or the largest value of an integer dtype.
double dtype_max(DType t);
/// Smallest value: -max for floats, the minimum for integers, 0 for u8 and bool.
double dtype_lowest(DType t);

enum class Fp8Mode : uint8_t { Saturating, NonSaturating };

/// The value a float64 becomes when stored into `t` (see the rules above).
double round_to_dtype(DType t, double x);
/// Decode one element of `t` stored at `p` into a float64 (exact for every dtype).
double load_element(DType t, const void* p);
/// Round `x` to `t` and write it at `p` (dtype_size(t) bytes).
void store_element(DType t, double x, void* p);

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
