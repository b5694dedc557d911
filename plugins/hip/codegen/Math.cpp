/// \file
/// Transcendental functions of float values. The AMDGPU backend of LLVM 19 expands f32 exp,
/// exp2, log and log2 into accurate sequences around v_exp_f32 and v_log_f32, and nothing
/// else: tanh, erf, log1p and every f64 transcendental are left to ROCm's ocml library, which
/// this backend does not link (README.md: exactness stays ours). Those come from the SDK's
/// recipes (plugins/support/MathRecipes.h), and so does sigmoid (1 / (1 + e^-x) loses the
/// tiny results of very negative x, where e^-x overflows), the same ones the Vulkan backend emits as SPIR-V,
/// here over an IRBuilder: plain fadd/fsub/fmul/fdiv with no fast-math flags (so LLVM neither
/// fuses nor reassociates them, and AMDGPU's fdiv is correctly rounded), llvm.roundeven and
/// llvm.fabs. tests/math_accuracy_test.cpp runs this IR on the host against the conformance
/// table's ulp limits.
#include <cstdint>

#include "plugins/hip/codegen/Emitter.h"
#include "plugins/support/MathRecipes.h"

namespace tegula::hip {
namespace {

/// One float format's arithmetic for the recipes, in LLVM IR.
struct LlvmOps {
  using Value = llvm::Value*;
  llvm::IRBuilder<>& b;
  llvm::Type* ft;  ///< float or double
  llvm::Type* ut;  ///< i32 or i64, the width of ft
  llvm::Type* it;  ///< i32
  bool f64;

  LlvmOps(llvm::IRBuilder<>& b, llvm::Type* f)
      : b(b), ft(f), ut(b.getIntNTy(f->getPrimitiveSizeInBits())), it(b.getInt32Ty()), f64(f->isDoubleTy()) {}

  Value c(double v) { return llvm::ConstantFP::get(ft, v); }
  Value add(Value x, Value y) { return b.CreateFAdd(x, y); }
  Value sub(Value x, Value y) { return b.CreateFSub(x, y); }
  Value mul(Value x, Value y) { return b.CreateFMul(x, y); }
  Value div(Value x, Value y) { return b.CreateFDiv(x, y); }
  Value neg(Value x) { return b.CreateFNeg(x); }
  Value fabs(Value x) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x); }
  Value roundeven(Value x) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, x); }
  Value lt(Value x, Value y) { return b.CreateFCmpOLT(x, y); }
  Value gt(Value x, Value y) { return b.CreateFCmpOGT(x, y); }
  Value ge(Value x, Value y) { return b.CreateFCmpOGE(x, y); }
  Value eq(Value x, Value y) { return b.CreateFCmpOEQ(x, y); }
  Value is_nan(Value x) { return b.CreateFCmpUNO(x, x); }
  Value lor(Value x, Value y) { return b.CreateOr(x, y); }
  Value select(Value cond, Value x, Value y) { return b.CreateSelect(cond, x, y); }
  Value to_i32(Value x) { return b.CreateFPToSI(x, it); }
  Value from_i32(Value x) { return b.CreateSIToFP(x, ft); }
  Value i32(int32_t v) { return llvm::ConstantInt::get(it, uint64_t(int64_t(v)), true); }
  Value iadd(Value x, Value y) { return b.CreateAdd(x, y); }
  Value isub(Value x, Value y) { return b.CreateSub(x, y); }
  Value ishr(Value x, int n) { return b.CreateAShr(x, uint64_t(n)); }
  Value bits(Value x) { return b.CreateBitCast(x, ut); }
  Value from_bits(Value x) { return b.CreateBitCast(x, ft); }
  Value u(uint64_t v) { return llvm::ConstantInt::get(ut, v); }
  Value uand(Value x, Value y) { return b.CreateAnd(x, y); }
  Value uor(Value x, Value y) { return b.CreateOr(x, y); }
  Value ushr(Value x, int n) { return b.CreateLShr(x, uint64_t(n)); }
  Value ushl(Value x, int n) { return b.CreateShl(x, uint64_t(n)); }
  Value widen(Value x) { return b.CreateZExtOrTrunc(x, ut); }
  Value narrow(Value x) { return b.CreateZExtOrTrunc(x, it); }
};

}  // namespace

llvm::Value* Emitter::math_function(ir::UnaryOp op, Val x) {
  using U = ir::UnaryOp;
  namespace m = plugin::math;
  llvm::Value* v = x.v;
  if (x.k == VK::F32) {
    switch (op) {
      case U::Exp: return b.CreateUnaryIntrinsic(llvm::Intrinsic::exp, v);
      case U::Exp2: return b.CreateUnaryIntrinsic(llvm::Intrinsic::exp2, v);
      case U::Log: return b.CreateUnaryIntrinsic(llvm::Intrinsic::log, v);
      case U::Log2: return b.CreateUnaryIntrinsic(llvm::Intrinsic::log2, v);
      default: break;
    }
  }
  if (x.k != VK::F32 && x.k != VK::F64) return nullptr;
  LlvmOps a(b, v->getType());
  switch (op) {
    case U::Exp: return m::exp(a, v);
    case U::Exp2: return m::exp2(a, v);
    case U::Log: return m::log(a, v);
    case U::Log2: return m::log2(a, v);
    case U::Log1p: return m::log1p(a, v);
    case U::Tanh: return m::tanh(a, v);
    case U::Erf: return m::erf(a, v);
    case U::Sigmoid: return m::sigmoid(a, v);
    default: return nullptr;
  }
}

}  // namespace tegula::hip
