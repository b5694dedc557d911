/// \file
/// The bit operators of the IR on 32-bit words (ir/OpList.h): operands taken modulo 2^32 as
/// i32, shift counts modulo 32, `>>` arithmetic and `>>>` logical. This is the reference's
/// form (the interpreter and constant folding use it); every backend writes the same rule
/// out with unsigned arithmetic, so no C++, LLVM or SPIR-V shift is ever undefined.
#pragma once

#include <cmath>
#include <cstdint>

#include "ir/IR.h"

namespace tegula::ir {

/// `v` modulo 2^32, as the i32 with those bits.
inline int32_t word_of(int64_t v) { return int32_t(uint32_t(uint64_t(v))); }

/// The word of an integer the interpreter holds as a double. fmod is exact, so this is `v`
/// modulo 2^32 for every integer double (also those past 2^63, where a cast would be UB).
inline int32_t word_of_double(double v) {
  if (!std::isfinite(v)) return 0;  // never an integer expression's value
  return word_of(int64_t(std::fmod(v, 4294967296.0)));
}

/// `a op b` for a bit operator (is_bitwise(op)); 0 for any other op.
inline int32_t bit_binary(BinaryOp op, int32_t a, int32_t b) {
  uint32_t x = uint32_t(a), y = uint32_t(b);
  uint32_t count = y & 31u;
  if (op == BinaryOp::BitAnd) return int32_t(x & y);
  if (op == BinaryOp::BitOr) return int32_t(x | y);
  if (op == BinaryOp::BitXor) return int32_t(x ^ y);
  if (op == BinaryOp::Shl) return int32_t(x << count);
  if (op == BinaryOp::ShrLogical) return int32_t(x >> count);
  if (op != BinaryOp::Shr) return 0;
  // Arithmetic: the logical shift with the vacated high bits set for a negative word.
  uint32_t fill = (a < 0 && count != 0) ? ~(~0u >> count) : 0u;
  return int32_t((x >> count) | fill);
}

inline int32_t bit_not(int32_t a) { return int32_t(~uint32_t(a)); }

/// bitcast<to>(x) of a value `x` whose dtype is `from` (same size, neither bool): an integer
/// is taken modulo 2^(8 * size), a float rounded to `from`, a NaN made canonical (with its
/// sign), and the bytes read back as `to`.
inline double bitcast_value(DType from, DType to, double x) {
  uint8_t bytes[8] = {};
  if (dtype_is_int(from)) {
    uint64_t w = uint32_t(word_of_double(x));
    for (size_t i = 0; i < dtype_size(from) && i < 4; ++i) bytes[i] = uint8_t(w >> (8 * i));
  } else {
    store_element(from, std::isnan(x) ? std::copysign(NAN, x) : x, bytes);
  }
  return load_element(to, bytes);
}

}  // namespace tegula::ir
