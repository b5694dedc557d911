/// \file
/// Element encodings and conversions in LLVM IR, with exactly the rounding rules of
/// core/DType.h: RNE everywhere; f16 and bf16 overflow to Inf; e4m3 and e5m2 saturate (Inf
/// too); NaN becomes the destination's canonical NaN with the input's sign; integers round
/// to nearest even, then saturate, NaN -> 0; bool is "non-zero, NaN included".
///
/// The narrow float encoders work on the bits of the f32 or f64 value, so converting an f64
/// rounds once (never through f32). Every routine works on scalars and on vectors alike
/// (constants are splatted to the operand's type), so loops over them vectorise.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "plugins/cpu/codegen/Emitter.h"

namespace tegula::cpu {
namespace {

/// A narrow float format as core/DType.h describes it, and whether its stores saturate:
/// the 8-bit-or-less formats do (this backend declares no nonsaturating_stores), f16, bf16
/// and tf32 overflow to Inf.
struct Mini {
  FloatFormat f;
  bool saturate;
};

Mini mini(DType d) { return {*float_format(d), dtype_size(d) == 1}; }

/// The OCP fp8 formats and the IEEE ones keep their dedicated decoders below; every other
/// narrow float decodes through the generic one.
bool generic_decode(DType d) { return float_format(d) && d != DType::TF32 && d != DType::F16 && d != DType::BF16 && d != DType::E4M3 && d != DType::E5M2; }

/// `t` with the lane count of `like` (scalar when `like` is scalar).
llvm::Type* shaped(llvm::Type* t, llvm::Value* like) {
  if (auto* v = llvm::dyn_cast<llvm::VectorType>(like->getType())) return llvm::VectorType::get(t, v->getElementCount());
  return t;
}

llvm::Constant* k(llvm::Type* t, uint64_t v) { return llvm::ConstantInt::get(t, v); }
llvm::Constant* kf(llvm::Type* t, double v) { return llvm::ConstantFP::get(t, v); }

}  // namespace

llvm::Type* Emitter::storage_type(DType d) {
  switch (d) {
    case DType::F64: return f64;
    case DType::F32:
    case DType::TF32: return f32;
    case DType::F16:
    case DType::BF16: return i16;
    case DType::E4M3:
    case DType::E5M2:
    case DType::I8:
    case DType::U8:
    case DType::Bool:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return i8;
    case DType::I32: return i32;
  }
  return i8;
}

llvm::Type* Emitter::kind_type(VK kind) {
  switch (kind) {
    case VK::Index: return i64;
    case VK::F32: return f32;
    case VK::F64: return f64;
    case VK::Bool: return i1;
  }
  return i64;
}

// --- decoding --------------------------------------------------------------------------

Val Emitter::decode(DType d, llvm::Value* raw) {
  auto as = [&](llvm::Type* t) { return shaped(t, raw); };
  switch (d) {
    case DType::F64: return {raw, VK::F64};
    case DType::F32:
    case DType::TF32: return {raw, VK::F32};
    case DType::F16: return {b.CreateFPExt(b.CreateBitCast(raw, as(b.getHalfTy())), as(f32)), VK::F32};
    case DType::BF16: {
      llvm::Value* wide = b.CreateShl(b.CreateZExt(raw, as(i32)), k(as(i32), 16));
      return {b.CreateBitCast(wide, as(f32)), VK::F32};
    }
    case DType::E5M2: {
      // e5m2 is the top byte of an f16.
      llvm::Value* half = b.CreateShl(b.CreateZExt(raw, as(i16)), k(as(i16), 8));
      return {b.CreateFPExt(b.CreateBitCast(half, as(b.getHalfTy())), as(f32)), VK::F32};
    }
    case DType::E4M3: {
      llvm::Type* t = as(i32);
      llvm::Value* x = b.CreateZExt(raw, t);
      llvm::Value* sign = b.CreateShl(b.CreateAnd(x, k(t, 0x80)), k(t, 24));
      llvm::Value* e = b.CreateAnd(b.CreateLShr(x, k(t, 3)), k(t, 0xf));
      llvm::Value* m = b.CreateAnd(x, k(t, 7));
      llvm::Value* normal = b.CreateOr(b.CreateShl(b.CreateAdd(e, k(t, 120)), k(t, 23)), b.CreateShl(m, k(t, 20)));
      // Subnormal: m * 2^-9, exact in f32.
      llvm::Value* sub = b.CreateBitCast(b.CreateFMul(b.CreateUIToFP(m, as(f32)), kf(as(f32), 1.0 / 512)), t);
      llvm::Value* mag = b.CreateSelect(b.CreateICmpEQ(e, k(t, 0)), sub, normal);
      mag = b.CreateSelect(b.CreateICmpEQ(b.CreateAnd(x, k(t, 0x7f)), k(t, 0x7f)), k(t, 0x7fc00000), mag);
      return {b.CreateBitCast(b.CreateOr(mag, sign), as(f32)), VK::F32};
    }
    case DType::I8:
    case DType::I32: return {b.CreateSExt(raw, as(i64)), VK::Index};
    case DType::U8: return {b.CreateZExt(raw, as(i64)), VK::Index};
    case DType::Bool: return {b.CreateICmpNE(raw, k(raw->getType(), 0)), VK::Bool};
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: {
      // core/DType.h's FloatFormat, bit by bit into an f32 (exact for all of them).
      const FloatFormat f = *float_format(d);
      llvm::Type* t = as(i32);
      int E = f.exp_bits, M = f.man_bits;
      llvm::Value* code = b.CreateAnd(b.CreateZExt(raw, t), k(t, (uint64_t(1) << f.bits()) - 1));
      llvm::Value* s = f.sign ? b.CreateShl(b.CreateLShr(code, k(t, uint64_t(E + M))), k(t, 31)) : k(t, 0);
      llvm::Value* mag = b.CreateAnd(code, k(t, f.magnitude_mask()));
      llvm::Value* e = b.CreateLShr(mag, k(t, uint64_t(M)));
      llvm::Value* m = b.CreateAnd(mag, k(t, (uint64_t(1) << M) - 1));
      llvm::Value* normal = b.CreateOr(b.CreateShl(b.CreateAdd(e, k(t, uint64_t(127 - f.bias))), k(t, 23)), b.CreateShl(m, k(t, uint64_t(23 - M))));
      // Exponent field 0: subnormals m * 2^(1 - bias - M), or (e8m0) the normal 2^-bias.
      llvm::Value* field0_sig = f.subnormals ? m : b.CreateOr(m, k(t, uint64_t(1) << M));
      double field0_scale = std::ldexp(1.0, (f.subnormals ? 1 : 0) - f.bias - M);
      llvm::Value* field0 = b.CreateBitCast(b.CreateFMul(b.CreateUIToFP(field0_sig, as(f32)), kf(as(f32), field0_scale)), t);
      llvm::Value* bits = b.CreateSelect(b.CreateICmpEQ(e, k(t, 0)), field0, normal);
      llvm::Value* nan_code = nullptr;
      if (f.specials == FloatSpecials::NanAllOnes) nan_code = b.CreateICmpEQ(mag, k(t, f.magnitude_mask()));
      if (f.specials == FloatSpecials::NanNegZero) {
        nan_code = b.CreateICmpEQ(code, k(t, f.nan_bits()));
        s = b.CreateSelect(nan_code, k(t, 0), s);  // its sign bit is the NaN's encoding, not a sign
      }
      if (nan_code) bits = b.CreateSelect(nan_code, k(t, 0x7fc00000), bits);
      return {b.CreateBitCast(b.CreateOr(bits, s), as(f32)), VK::F32};
    }
  }
  return {raw, VK::F32};
}

// --- encoding --------------------------------------------------------------------------

/// Round an f32 or f64 value to a narrow float format; returns the format's bits (sign
/// included) in an integer of the source's width. The rules are core/DType.h's; the formats
/// without subnormals (e8m0) or with the range of an f32 subnormal are encoded from f64.
static llvm::Value* encode_mini(Emitter& e, llvm::Value* x, const Mini& mf) {
  llvm::IRBuilder<>& b = e.b;
  const FloatFormat& f = mf.f;
  bool wide = x->getType()->getScalarType()->isDoubleTy();
  int width = wide ? 64 : 32;
  int src_man = wide ? 52 : 23;
  int src_bias = wide ? 1023 : 127;
  llvm::Type* t = shaped(wide ? e.i64 : e.i32, x);
  llvm::Type* ft = x->getType();
  uint64_t abs_mask = (uint64_t(1) << (width - 1)) - 1;
  uint64_t src_inf = ((uint64_t(1) << (width - 1 - src_man)) - 1) << src_man;

  llvm::Value* bits = b.CreateBitCast(x, t);
  llvm::Value* negative = b.CreateICmpNE(b.CreateLShr(bits, k(t, uint64_t(width - 1))), k(t, 0));
  llvm::Value* sign = f.sign ? b.CreateShl(b.CreateLShr(bits, k(t, uint64_t(width - 1))), k(t, uint64_t(f.exp_bits + f.man_bits))) : k(t, 0);
  llvm::Value* a = b.CreateAnd(bits, k(t, abs_mask));

  // Normal results: RNE on the bits, then rebias the exponent (a mantissa carry moves into
  // the exponent by itself).
  int shift = src_man - f.man_bits;
  // With no mantissa bits (e8m0) the kept significand is the implicit 1, so a tie rounds up
  // (core/DType.h), whatever the exponent field's parity.
  llvm::Value* lsb = f.man_bits == 0 ? k(t, 1) : b.CreateAnd(b.CreateLShr(a, k(t, uint64_t(shift))), k(t, 1));
  llvm::Value* rounded = b.CreateAdd(b.CreateAdd(a, k(t, (uint64_t(1) << (shift - 1)) - 1)), lsb);
  llvm::Value* q = b.CreateLShr(rounded, k(t, uint64_t(shift)));
  uint64_t rebias = uint64_t(src_bias - f.bias) << f.man_bits;
  llvm::Value* mag = b.CreateSub(q, k(t, rebias));

  // Results below the format's smallest normal: q = RNE(|x| / 2^(emin - m)), or (no
  // subnormals) the smallest value, code 0. Formats with the source's exponent range (bf16,
  // tf32 from f32) need no special case.
  int emin = f.min_normal_exponent();
  if (wide || f.bias != src_bias) {
    uint64_t min_normal_bits = uint64_t(emin + src_bias) << src_man;
    llvm::Value* small = b.CreateICmpULT(a, k(t, min_normal_bits));
    if (f.subnormals) {
      // Only small values are converted (others become 0 first), so the conversion is always
      // in range: a plain one vectorises, a saturating one does not on x86.
      llvm::Value* absx = b.CreateSelect(small, b.CreateBitCast(a, ft), kf(ft, 0.0));
      llvm::Value* scaled = b.CreateFMul(absx, kf(ft, std::ldexp(1.0, f.man_bits - emin)));
      llvm::Value* r = b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, scaled);
      mag = b.CreateSelect(small, b.CreateFPToSI(r, t), mag);
    } else {
      mag = b.CreateSelect(small, k(t, 0), mag);
    }
  }

  bool clamp = mf.saturate || f.specials == FloatSpecials::None;
  uint64_t over_mag = clamp ? f.max_magnitude() : (f.specials == FloatSpecials::Ieee ? f.inf_bits() : f.nan_bits());
  bool over_signed = clamp || f.specials != FloatSpecials::NanNegZero;
  llvm::Value* overflow = b.CreateOr(b.CreateICmpUGT(mag, k(t, f.max_magnitude())), b.CreateICmpEQ(a, k(t, src_inf)));
  llvm::Value* is_nan = b.CreateICmpUGT(a, k(t, src_inf));
  llvm::Value* res = b.CreateOr(mag, sign);
  if (f.specials == FloatSpecials::NanNegZero) res = b.CreateSelect(b.CreateICmpEQ(mag, k(t, 0)), k(t, 0), res);  // no -0
  res = b.CreateSelect(overflow, over_signed ? b.CreateOr(sign, k(t, over_mag)) : k(t, over_mag), res);
  if (!f.sign) {
    // No negative values: those that do not round to zero (all, where there is no zero)
    // become the lowest value (saturating stores, the only ones here).
    llvm::Value* nonzero = b.CreateICmpNE(a, k(t, 0));
    llvm::Value* lost = f.subnormals ? b.CreateICmpNE(mag, k(t, 0)) : nonzero;
    res = b.CreateSelect(b.CreateAnd(negative, b.CreateAnd(nonzero, lost)), k(t, 0), res);
  }
  uint64_t nan_res = f.specials == FloatSpecials::None ? f.max_magnitude() : f.nan_bits();
  bool nan_signed = f.specials == FloatSpecials::Ieee || f.specials == FloatSpecials::NanAllOnes;
  return b.CreateSelect(is_nan, nan_signed ? b.CreateOr(sign, k(t, nan_res)) : k(t, nan_res), res);
}

llvm::Value* Emitter::encode(DType d, Val v) {
  llvm::Value* x = v.v;
  auto as = [&](llvm::Type* t) { return shaped(t, x); };
  if (d == DType::Bool) return b.CreateZExt(convert(v, VK::Bool).v, as(i8));
  if (dtype_is_int(d)) {
    llvm::Type* st = as(storage_type(d));
    if (v.k == VK::Bool) return b.CreateZExt(x, st);
    if (v.k == VK::Index) {
      int64_t lo = d == DType::I8 ? -128 : (d == DType::U8 ? 0 : INT32_MIN);
      int64_t hi = d == DType::I8 ? 127 : (d == DType::U8 ? 255 : INT32_MAX);
      llvm::Value* c = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, llvm::ConstantInt::get(as(i64), lo, true));
      c = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, c, llvm::ConstantInt::get(as(i64), hi, true));
      return b.CreateTrunc(c, st);
    }
    // RNE, then saturate, NaN to 0. The bounds are compared as floats (lo and hi + 1 are
    // powers of two, exact in f32), so the conversion itself is always in range and
    // vectorises (LLVM's saturating conversions do not on x86).
    double lo = d == DType::I8 ? -128.0 : (d == DType::U8 ? 0.0 : -2147483648.0);
    double hi = d == DType::I8 ? 127.0 : (d == DType::U8 ? 255.0 : 2147483647.0);
    llvm::Type* ft = x->getType();
    llvm::Value* r = b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, x);
    llvm::Value* above = b.CreateFCmpOGE(r, kf(ft, hi + 1));
    llvm::Value* below = b.CreateFCmpOLT(r, kf(ft, lo));
    llvm::Value* nan = b.CreateFCmpUNO(r, r);
    llvm::Value* safe = b.CreateSelect(b.CreateOr(b.CreateOr(above, below), nan), kf(ft, 0.0), r);
    llvm::Type* wide = as(i32);
    llvm::Value* n = b.CreateFPToSI(safe, wide);
    n = b.CreateSelect(above, llvm::ConstantInt::get(wide, uint64_t(int64_t(hi)), true), n);
    n = b.CreateSelect(below, llvm::ConstantInt::get(wide, uint64_t(int64_t(lo)), true), n);
    return b.CreateTrunc(n, st);
  }
  if (d == DType::F64) return convert(v, VK::F64).v;
  if (d == DType::F32) return convert(v, VK::F32).v;
  // Narrow floats round from f32 or f64 bits; integers go through f64 (exact below 2^53).
  Val src = v;
  if (v.k == VK::Index) src = convert(v, VK::F64);
  if (v.k == VK::Bool) src = convert(v, VK::F32);
  // e8m0's smallest value, 2^-127, is an f32 subnormal, which the bit path cannot round:
  // it and the other generic formats round from f64 (exact from f32).
  if (generic_decode(d) && src.k == VK::F32) src = convert(src, VK::F64);
  llvm::Value* bits = encode_mini(*this, src.v, mini(d));
  if (d == DType::TF32) {
    // tf32 is an f32 whose low 13 mantissa bits are zero.
    llvm::Value* b32 = b.CreateZExtOrTrunc(bits, shaped(i32, bits));
    return b.CreateBitCast(b.CreateShl(b32, k(shaped(i32, bits), 13)), shaped(f32, bits));
  }
  return b.CreateTrunc(bits, shaped(storage_type(d), bits));
}

Val Emitter::convert(Val v, VK to) {
  if (v.k == to) return v;
  llvm::Value* x = v.v;
  auto as = [&](llvm::Type* t) { return shaped(t, x); };
  switch (to) {
    case VK::Bool:
      if (v.k == VK::Index) return {b.CreateICmpNE(x, k(x->getType(), 0)), to};
      return {b.CreateFCmpUNE(x, kf(x->getType(), 0.0)), to};
    case VK::Index:
      if (v.k == VK::Bool) return {b.CreateZExt(x, as(i64)), to};
      return {b.CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {as(i64), x->getType()},
                                {b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, x)}),
              to};
    case VK::F32:
    case VK::F64: {
      llvm::Type* ft = as(to == VK::F32 ? f32 : f64);
      if (v.k == VK::Index) return {b.CreateSIToFP(x, ft), to};
      if (v.k == VK::Bool) return {b.CreateUIToFP(x, ft), to};
      if (to == VK::F64) return {b.CreateFPExt(x, ft), to};
      return {b.CreateFPTrunc(x, ft), to};
    }
  }
  return v;
}

Val Emitter::round_to(DType d, Val v) {
  if (d == DType::Bool) return convert(v, VK::Bool);
  if (d == DType::F32) return convert(v, VK::F32);
  if (d == DType::F64) return convert(v, VK::F64);
  return decode(d, encode(d, v));
}

llvm::Constant* Emitter::encoded_constant(DType d, double x) {
  alignas(8) unsigned char bytes[8] = {0};
  store_element(d, x, bytes);
  switch (d) {
    case DType::F64: {
      double v;
      std::memcpy(&v, bytes, 8);
      return llvm::ConstantFP::get(f64, v);
    }
    case DType::F32:
    case DType::TF32: {
      uint32_t bits;
      std::memcpy(&bits, bytes, 4);
      return llvm::ConstantFP::get(ctx, llvm::APFloat(llvm::APFloat::IEEEsingle(), llvm::APInt(32, bits)));
    }
    case DType::F16:
    case DType::BF16: {
      uint16_t bits;
      std::memcpy(&bits, bytes, 2);
      return llvm::ConstantInt::get(i16, bits);
    }
    case DType::I32: {
      uint32_t bits;
      std::memcpy(&bits, bytes, 4);
      return llvm::ConstantInt::get(i32, bits);
    }
    default: return llvm::ConstantInt::get(i8, bytes[0]);
  }
}

}  // namespace tegula::cpu
