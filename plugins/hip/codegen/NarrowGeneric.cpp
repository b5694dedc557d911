/// \file
/// The narrow floats beyond OCP FP8 (e4m3fnuz and e5m2fnuz, gfx942's own FP8; the MX FP6
/// and FP4 formats; the e8m0 and ue4m3 block scales), written once from core/DType.h's
/// FloatFormat rather than one routine per dtype: the formats differ only in its numbers.
/// Rounding is core's: one round to nearest even from f64 (an f32 value widens exactly
/// first, so e8m0's smallest value, an f32 subnormal, is reached on the normal path), the
/// saturating store mode (the only one gfx942's description declares), the format's NaN or,
/// where it has none, +max.
#include <cmath>

#include "plugins/hip/codegen/Emitter.h"

namespace tegula::hip {

using llvm::Value;

Value* Emitter::encode_generic(DType d, Val v) {
  const FloatFormat f = *float_format(d);
  Value* x = convert(v, VK::F64).v;
  auto c64 = [&](uint64_t n) { return llvm::ConstantInt::get(i64, n); };
  Value* bits = b.CreateBitCast(x, i64);
  Value* negative = b.CreateICmpSLT(bits, c64(0));
  Value* sign = f.sign ? b.CreateShl(b.CreateLShr(bits, 63), uint64_t(f.exp_bits + f.man_bits)) : c64(0);
  Value* a = b.CreateAnd(bits, c64(~(uint64_t(1) << 63)));
  const uint64_t inf64 = uint64_t(0x7ff) << 52;

  // Normal results: ties to even on the f64 bits, then rebias (a carry moves the exponent).
  int shift = 52 - f.man_bits;
  // With no mantissa bits (e8m0) the kept significand is the implicit 1: a tie rounds up.
  Value* lsb = f.man_bits == 0 ? c64(1) : b.CreateAnd(b.CreateLShr(a, uint64_t(shift)), 1);
  Value* q = b.CreateLShr(b.CreateAdd(b.CreateAdd(a, c64((uint64_t(1) << (shift - 1)) - 1)), lsb), uint64_t(shift));
  Value* mag = b.CreateSub(q, c64(uint64_t(1023 - f.bias) << f.man_bits));
  // Below the smallest normal: quanta of 2^(emin - man), or (no subnormals) code 0.
  int emin = f.min_normal_exponent();
  Value* small = b.CreateICmpULT(a, c64(uint64_t(emin + 1023) << 52));
  if (f.subnormals) {
    Value* ax = b.CreateSelect(small, b.CreateBitCast(a, f64), llvm::ConstantFP::get(f64, 0.0));
    Value* r = b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, b.CreateFMul(ax, llvm::ConstantFP::get(f64, std::ldexp(1.0, f.man_bits - emin))));
    mag = b.CreateSelect(small, b.CreateFPToUI(r, i64), mag);
  } else {
    mag = b.CreateSelect(small, c64(0), mag);
  }
  Value* overflow = b.CreateOr(b.CreateICmpUGT(mag, c64(f.max_magnitude())), b.CreateICmpEQ(a, c64(inf64)));
  Value* res = b.CreateOr(mag, sign);
  if (f.specials == FloatSpecials::NanNegZero) res = b.CreateSelect(b.CreateICmpEQ(mag, c64(0)), c64(0), res);  // no -0
  res = b.CreateSelect(overflow, b.CreateOr(sign, c64(f.max_magnitude())), res);
  if (!f.sign) {
    // No negative values: those that do not round to zero (all, where there is no zero)
    // become the lowest value.
    Value* nonzero = b.CreateICmpNE(a, c64(0));
    Value* lost = f.subnormals ? b.CreateICmpNE(mag, c64(0)) : nonzero;
    res = b.CreateSelect(b.CreateAnd(negative, b.CreateAnd(nonzero, lost)), c64(0), res);
  }
  Value* is_nan = b.CreateICmpUGT(a, c64(inf64));
  Value* nan = nullptr;
  switch (f.specials) {
    case FloatSpecials::None: nan = c64(f.max_magnitude()); break;
    case FloatSpecials::NanNegZero: nan = c64(f.nan_bits()); break;
    case FloatSpecials::NanAllOnes:
    case FloatSpecials::Ieee: nan = b.CreateOr(sign, c64(f.nan_bits())); break;
  }
  return b.CreateTrunc(b.CreateSelect(is_nan, nan, res), i8);
}

Value* Emitter::decode_generic(DType d, Value* raw) {
  const FloatFormat f = *float_format(d);
  auto c = [&](uint64_t n) { return b.getInt32(uint32_t(n)); };
  int E = f.exp_bits, M = f.man_bits;
  Value* code = b.CreateAnd(b.CreateZExt(raw, i32), c((uint64_t(1) << f.bits()) - 1));
  Value* s = f.sign ? b.CreateShl(b.CreateLShr(code, uint64_t(E + M)), 31) : c(0);
  Value* mag = b.CreateAnd(code, c(f.magnitude_mask()));
  Value* e = b.CreateLShr(mag, uint64_t(M));
  Value* m = b.CreateAnd(mag, c((uint64_t(1) << M) - 1));
  Value* normal = b.CreateOr(b.CreateShl(b.CreateAdd(e, c(uint64_t(127 - f.bias))), 23), b.CreateShl(m, uint64_t(23 - M)));
  // Exponent field 0: subnormals m * 2^(1 - bias - M), or (e8m0) the normal 2^-bias; exact.
  Value* sig0 = f.subnormals ? m : b.CreateOr(m, c(uint64_t(1) << M));
  double scale0 = std::ldexp(1.0, (f.subnormals ? 1 : 0) - f.bias - M);
  Value* field0 = b.CreateBitCast(b.CreateFMul(b.CreateUIToFP(sig0, f32), llvm::ConstantFP::get(f32, scale0)), i32);
  Value* out = b.CreateSelect(b.CreateICmpEQ(e, c(0)), field0, normal);
  Value* is_nan = nullptr;
  if (f.specials == FloatSpecials::NanAllOnes) is_nan = b.CreateICmpEQ(mag, c(f.magnitude_mask()));
  if (f.specials == FloatSpecials::NanNegZero) {
    is_nan = b.CreateICmpEQ(code, c(f.nan_bits()));
    s = b.CreateSelect(is_nan, c(0), s);  // the -0 pattern is the NaN, not a sign
  }
  if (is_nan) out = b.CreateSelect(is_nan, c(0x7fc00000), out);
  return b.CreateBitCast(b.CreateOr(out, s), f32);
}

}  // namespace tegula::hip
