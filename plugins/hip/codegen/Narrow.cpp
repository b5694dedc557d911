/// \file
/// Rounding to the narrow float dtypes exactly as core/DType.h does (one round to nearest
/// even from the value's own width, subnormals included; f16, bf16 and tf32 overflow to
/// infinity, e4m3 and e5m2 saturate at their largest finite value, as store_element's
/// saturating FP8 mode; a NaN becomes the dtype's quiet NaN with its sign).
///
/// An f32 value goes to f16 by fptrunc (v_cvt_f16_f32: round to nearest even), to bf16, tf32
/// and fp8 on its bits (LLVM's own bf16 expansion differs between targets: the host's flushes
/// subnormals, which the test of these functions, JIT-compiled for the host, would not see). An f64 value is first rounded, in f64, to the
/// dtype's precision with an unbounded exponent (round_f64_to), which makes the later
/// narrowing to f32 and to the dtype exact: rounding twice through f32 would not be.
#include <cmath>

#include "plugins/hip/codegen/Emitter.h"

namespace tegula::hip {

using llvm::Value;

namespace {

struct Format {
  int man = 0;   ///< mantissa bits
  int emin = 0;  ///< exponent of the smallest normal
};

Format format_of(DType d) {
  switch (d) {
    case DType::F16: return {10, -14};
    case DType::BF16: return {7, -126};
    case DType::TF32: return {10, -126};
    case DType::E4M3: return {3, -6};
    case DType::E5M2: return {2, -14};
    default: return {};
  }
}

}  // namespace

Value* Emitter::round_f64_to(Value* x, int man, int emin) {
  Value* ax = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  // Normal: ties-to-even at mantissa bit 52 - man of the f64 bits (a carry moves the exponent).
  int shift = 52 - man;
  Value* bits = b.CreateBitCast(ax, i64);
  Value* lsb = b.CreateAnd(b.CreateLShr(bits, uint64_t(shift)), 1);
  Value* bias = b.CreateAdd(lsb, ci((int64_t(1) << (shift - 1)) - 1));
  Value* normal = b.CreateBitCast(b.CreateAnd(b.CreateAdd(bits, bias), ci(~((int64_t(1) << shift) - 1))), f64);
  // Subnormal: a fixed quantum of 2^(emin - man); the scaling by powers of two is exact.
  double scale = std::ldexp(1.0, man - emin);
  Value* sub =
      b.CreateFDiv(b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, b.CreateFMul(ax, llvm::ConstantFP::get(f64, scale))),
                   llvm::ConstantFP::get(f64, scale));
  Value* mag = b.CreateSelect(b.CreateFCmpOLT(ax, llvm::ConstantFP::get(f64, std::ldexp(1.0, emin))), sub, normal);
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, mag, x);
}

Result<Value*> Emitter::encode_narrow(DType d, Val v) {
  Format f = format_of(d);
  Val x = v.k == VK::F64 ? v : convert(v, VK::F32);
  // The quiet NaN with the value's sign, as the dtype stores it.
  Value* is_nan = b.CreateFCmpUNO(x.v, x.v);
  Value* negative = b.CreateICmpSLT(b.CreateBitCast(x.v, b.getIntNTy(x.v->getType()->getPrimitiveSizeInBits())),
                                    llvm::ConstantInt::get(b.getIntNTy(x.v->getType()->getPrimitiveSizeInBits()), 0));
  TG_ASSIGN_OR_RETURN(llvm::Constant * nan_pos, encoded_constant(d, std::nan("")));
  TG_ASSIGN_OR_RETURN(llvm::Constant * nan_neg, encoded_constant(d, -std::nan("")));
  llvm::Type* nan_int = b.getIntNTy(nan_pos->getType()->getPrimitiveSizeInBits());
  Value* nan = b.CreateSelect(negative, b.CreateBitCast(nan_neg, nan_int), b.CreateBitCast(nan_pos, nan_int));
  // From f64: round to the dtype's precision first, so the narrowing below is exact.
  Value* x32 = v.k == VK::F64 ? b.CreateFPTrunc(round_f64_to(x.v, f.man, f.emin), f32) : x.v;
  Value* out = nullptr;
  switch (d) {
    case DType::F16: out = b.CreateFPTrunc(x32, f16); break;
    case DType::BF16:
    case DType::TF32: {
      // Ties to even on the f32 bits (subnormals and the carry into the exponent included;
      // overflow reaches infinity): bf16 keeps the top 16 bits, tf32 zeroes the low 13.
      int shift = d == DType::BF16 ? 16 : 13;
      Value* bits = b.CreateBitCast(x32, i32);
      Value* lsb = b.CreateAnd(b.CreateLShr(bits, uint64_t(shift)), 1);
      Value* rounded = b.CreateAdd(bits, b.CreateAdd(lsb, b.getInt32((1 << (shift - 1)) - 1)));
      if (d == DType::BF16)
        out = b.CreateBitCast(b.CreateTrunc(b.CreateLShr(rounded, 16), i16), bf16);
      else
        out = b.CreateBitCast(b.CreateAnd(rounded, b.getInt32(int32_t(0xFFFFE000u))), f32);
      break;
    }
    case DType::E4M3:
    case DType::E5M2: {
      // Magnitude bits: subnormals count quanta of 2^(emin - man); normals round the f32
      // mantissa to `man` bits and rebias the exponent; saturate at the largest finite value.
      Value* ax = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x32);
      Value* quanta = b.CreateFPToUI(
          b.CreateUnaryIntrinsic(llvm::Intrinsic::rint,
                                 b.CreateFMul(ax, llvm::ConstantFP::get(f32, std::ldexp(1.0, f.man - f.emin)))),
          i32);
      Value* bits = b.CreateBitCast(ax, i32);
      int shift = 23 - f.man;
      Value* lsb = b.CreateAnd(b.CreateLShr(bits, uint64_t(shift)), 1);
      Value* rounded = b.CreateAdd(bits, b.CreateAdd(lsb, b.getInt32((1 << (shift - 1)) - 1)));
      int rebias = (127 - (1 - f.emin)) << f.man;  // f32 exponent bias minus the dtype's
      Value* normal = b.CreateSub(b.CreateLShr(rounded, uint64_t(shift)), b.getInt32(rebias));
      Value* small = b.CreateFCmpOLT(ax, llvm::ConstantFP::get(f32, std::ldexp(1.0, f.emin)));
      Value* mag = b.CreateSelect(small, quanta, normal);
      int max_finite = d == DType::E4M3 ? 0x7E : 0x7B;
      mag = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, mag, b.getInt32(max_finite));
      Value* sign = b.CreateSelect(negative, b.getInt32(0x80), b.getInt32(0));
      out = b.CreateTrunc(b.CreateOr(mag, sign), i8);
      break;
    }
    default: return error(ErrorCode::Internal, std::string("hip: ") + dtype_name(d) + " is not a narrow float");
  }
  // The NaN choices are made on the bits: a select of bf16 values makes a host without native
  // bf16 (the JIT-compiled test's) promote through f32 and call __truncsfbf2, which no
  // library on Debian 12 provides; on AMDGPU the integer select is the same instruction.
  llvm::Type* ty = out->getType();
  llvm::Type* int_ty = b.getIntNTy(ty->getPrimitiveSizeInBits());
  Value* chosen = b.CreateSelect(is_nan, nan, b.CreateBitCast(out, int_ty));
  return b.CreateBitCast(chosen, ty);
}

}  // namespace tegula::hip
