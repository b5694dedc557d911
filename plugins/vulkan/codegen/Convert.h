/// \file
/// Element encodings in SPIR-V, with exactly the rounding rules of core/DType.h:
///
///  - storage_type: how a dtype's elements sit in buffers and shared memory (its own bits:
///    f16/bf16 as 16-bit words, every narrower float, i8, u8 and bool as bytes, tf32 as f32
///    bits; the narrow floats' encoders and decoders are written from core's FloatFormat);
///  - value_type: how values of that dtype are held in registers (f64, f32, i32 or bool);
///  - decode: storage -> value, exact;
///  - encode: any value -> storage, rounding to nearest even with the dtype's overflow,
///    saturation and NaN rules, done on the integer bits (no reliance on the device's
///    conversion rounding or denormal handling);
///  - round: any value -> value_type, rounded as a store to that dtype would round it;
///  - restore: storage -> the storage a store of its value writes (raw copies).
///
/// Narrow float encoders are SPIR-V functions emitted once per module and called; a value
/// computed in f64 is first rounded to f32 with round-to-odd, which makes the second
/// rounding exact for every format of at most 22 significand bits.
#pragma once

#include <cstdint>
#include <map>

#include "core/DType.h"
#include "plugins/vulkan/spirv/Builder.h"

namespace tegula::vulkan {

using spv::T;
using spv::Value;

class Conversions {
public:
  explicit Conversions(spv::Builder& b) : b_(b) {}

  static T storage_type(DType d);
  static T value_type(DType d);

  Value decode(DType d, Value raw);
  Value encode(DType d, Value v);
  Value round(DType d, Value v);
  /// The encoding a store of `raw`'s value writes: the same bits, except e5m2 +-Inf, which
  /// the (saturating) store turns into +-57344. NaN payloads may stay (any NaN is NaN).
  Value restore(DType d, Value raw);
  /// A value as a float of type `to` (F32 or F64): ints convert, bools become 0 or 1.
  Value to_float(Value v, T to);
  /// A float value (F32 or F64) as an i32, rounded to nearest even and saturated to
  /// [lo, hi]; NaN becomes 0.
  Value float_to_int(Value v, double lo, double hi);
  Value round_even_f64(Value v);  ///< round half to even without GLSL RoundEven (see Convert.cpp)

private:
  /// A narrow float as core/DType.h describes it, and whether its stores saturate: the
  /// 8-bit-or-less formats do (this backend declares no nonsaturating_stores), the 16- and
  /// 19-bit IEEE ones overflow to Inf.
  struct MiniFormat {
    FloatFormat f;
    bool saturate;
  };
  static MiniFormat format(DType d);
  /// u32 code (sign in bit exp_bits + man_bits) of an f32 value.
  Value encode_mini(DType d, Value f32);
  /// f32 value of a u32 code.
  Value decode_mini(DType d, Value code);
  uint32_t encoder_fn(DType d);
  uint32_t decoder_fn(DType d);
  uint32_t round_to_odd_fn();
  Value to_f32_for_narrow(Value v);

  spv::Builder& b_;
  std::map<DType, uint32_t> encoders_, decoders_;
  uint32_t round_to_odd_ = 0;
};

}  // namespace tegula::vulkan
