/// \file
/// exp, exp2, log and tanh. f32 versions are inline polynomial code (Cephes' single
/// precision approximations, about 1-2 ulp) so that loops calling them vectorise; they work
/// on scalars and vectors alike. f64 versions call libm. sigmoid is 1 / (1 + exp(-x)) over
/// those, in a form that cannot overflow. log2, log1p and erf call libm's f64 function for f32 too, rounding once (within
/// an ulp, scalar: a map calling them does not vectorise). Also max and min with the IR's
/// signed-zero rule.
#include <cmath>
#include <cstdint>

#include "llvm/IR/Intrinsics.h"
#include "plugins/cpu/codegen/Emitter.h"

namespace tegula::cpu {
namespace {

bool is_f64(llvm::Value* x) { return x->getType()->getScalarType()->isDoubleTy(); }

struct F32Math {
  llvm::IRBuilder<>& b;
  llvm::Type* ft;  // f32 or <N x f32>
  llvm::Type* it;  // i32 or <N x i32>

  llvm::Value* c(double v) { return llvm::ConstantFP::get(ft, v); }
  llvm::Value* ci(int64_t v) { return llvm::ConstantInt::get(it, uint64_t(v), true); }
  llvm::Value* fma(llvm::Value* a, llvm::Value* x, llvm::Value* y) {
    return b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {ft}, {a, x, y});
  }
  /// Horner: ((c0 * x + c1) * x + c2) ...
  llvm::Value* poly(llvm::Value* x, std::initializer_list<double> coefficients) {
    llvm::Value* acc = nullptr;
    for (double k : coefficients) acc = acc ? fma(acc, x, c(k)) : c(k);
    return acc;
  }
  /// 2^n for integer n in [-126, 127] (an i32 value).
  llvm::Value* pow2(llvm::Value* n) { return b.CreateBitCast(b.CreateShl(b.CreateAdd(n, ci(127)), ci(23)), ft); }
  llvm::Value* select(llvm::Value* cond, llvm::Value* a, llvm::Value* x) { return b.CreateSelect(cond, a, x); }

  /// e^r for |r| <= ln2/2, times 2^n (n an f32 integer in [-150, 128]).
  llvm::Value* exp_core(llvm::Value* r, llvm::Value* n) {
    llvm::Value* z = b.CreateFMul(r, r);
    llvm::Value* p = poly(r, {1.9875691500E-4, 1.3981999507E-3, 8.3334519073E-3, 4.1665795894E-2, 1.6666665459E-1,
                              5.0000001201E-1});
    llvm::Value* y = b.CreateFAdd(fma(p, z, r), c(1.0));
    // Scale in two steps so that each factor is a normal power of two.
    llvm::Value* ni = b.CreateFPToSI(n, it);
    llvm::Value* n1 = b.CreateAShr(ni, ci(1));
    llvm::Value* n2 = b.CreateSub(ni, n1);
    return b.CreateFMul(b.CreateFMul(y, pow2(n1)), pow2(n2));
  }

  llvm::Value* exp(llvm::Value* x) {
    llvm::Value* nan = b.CreateFCmpUNO(x, x);
    llvm::Value* xc = select(b.CreateFCmpOGT(x, c(89.0)), c(89.0), x);
    xc = select(b.CreateFCmpOLT(xc, c(-104.0)), c(-104.0), xc);
    xc = select(nan, c(0.0), xc);
    llvm::Value* n = b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, b.CreateFMul(xc, c(1.44269504088896341)));
    llvm::Value* r = fma(n, c(-0.693359375), xc);
    r = fma(n, c(2.12194440e-4), r);
    return select(nan, x, exp_core(r, n));
  }

  llvm::Value* exp2(llvm::Value* x) {
    llvm::Value* nan = b.CreateFCmpUNO(x, x);
    llvm::Value* xc = select(b.CreateFCmpOGT(x, c(129.0)), c(129.0), x);
    xc = select(b.CreateFCmpOLT(xc, c(-151.0)), c(-151.0), xc);
    xc = select(nan, c(0.0), xc);
    llvm::Value* n = b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, xc);
    llvm::Value* r = b.CreateFMul(b.CreateFSub(xc, n), c(0.693147180559945309));
    return select(nan, x, exp_core(r, n));
  }

  llvm::Value* log(llvm::Value* x) {
    // Subnormals: scale into the normal range first.
    llvm::Value* tiny = b.CreateFCmpOLT(x, c(1.17549435e-38));
    llvm::Value* xs = select(tiny, b.CreateFMul(x, c(8388608.0)), x);
    llvm::Value* bits = b.CreateBitCast(xs, it);
    llvm::Value* e = b.CreateSub(b.CreateLShr(bits, ci(23)), ci(126));
    e = select(tiny, b.CreateSub(e, ci(23)), e);
    llvm::Value* m = b.CreateBitCast(b.CreateOr(b.CreateAnd(bits, ci(0x007fffff)), ci(0x3f000000)), ft);
    llvm::Value* small = b.CreateFCmpOLT(m, c(0.707106781186547524));
    e = select(small, b.CreateSub(e, ci(1)), e);
    m = select(small, b.CreateFSub(b.CreateFAdd(m, m), c(1.0)), b.CreateFSub(m, c(1.0)));
    llvm::Value* z = b.CreateFMul(m, m);
    llvm::Value* p = poly(m, {7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1, 1.4249322787E-1,
                              -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1});
    llvm::Value* y = b.CreateFMul(b.CreateFMul(p, m), z);
    llvm::Value* fe = b.CreateSIToFP(e, ft);
    y = fma(fe, c(-2.12194440e-4), y);
    y = fma(z, c(-0.5), y);
    llvm::Value* r = b.CreateFAdd(m, y);
    r = fma(fe, c(0.693359375), r);
    // log(0) = -inf, log(inf) = inf, log(negative or NaN) = NaN.
    r = select(b.CreateFCmpOEQ(x, c(0.0)), c(-INFINITY), r);
    r = select(b.CreateFCmpOEQ(x, c(INFINITY)), c(INFINITY), r);
    return select(b.CreateFCmpULT(x, c(0.0)), c(NAN), r);
  }

  llvm::Value* tanh(llvm::Value* x) {
    llvm::Value* z = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
    // Large |x|: 1 - 2 / (e^2|x| + 1), with x's sign.
    llvm::Value* s = exp(b.CreateFAdd(z, z));
    llvm::Value* big = b.CreateFSub(c(1.0), b.CreateFDiv(c(2.0), b.CreateFAdd(s, c(1.0))));
    big = b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, big, x);
    // Small |x|: an odd polynomial.
    llvm::Value* z2 = b.CreateFMul(x, x);
    llvm::Value* p = poly(z2, {-5.70498872745E-3, 2.06390887954E-2, -5.37397155531E-2, 1.33314422036E-1,
                               -3.33332819422E-1});
    llvm::Value* smallr = fma(b.CreateFMul(p, z2), x, x);
    return select(b.CreateFCmpOGT(z, c(0.625)), big, smallr);
  }
};

F32Math f32_math(Emitter& e, llvm::Value* x) {
  llvm::Type* it = e.i32;
  if (auto* v = llvm::dyn_cast<llvm::VectorType>(x->getType())) it = llvm::VectorType::get(e.i32, v->getElementCount());
  return F32Math{e.b, x->getType(), it};
}

llvm::Value* libm(Emitter& e, const char* name, llvm::Value* x);

/// An f64 libm function applied to an f32 or f64 scalar or vector, lane by lane; f32 lanes
/// widen to f64 and round back once.
llvm::Value* libm_lanes(Emitter& e, const char* name, llvm::Value* x) {
  llvm::IRBuilder<>& b = e.b;
  llvm::Type* ty = x->getType();
  auto one = [&](llvm::Value* lane) {
    if (lane->getType()->isDoubleTy()) return libm(e, name, lane);
    return b.CreateFPTrunc(libm(e, name, b.CreateFPExt(lane, e.f64)), lane->getType());
  };
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(ty);
  if (!vt) return one(x);
  llvm::Value* out = llvm::PoisonValue::get(ty);
  for (unsigned i = 0; i < vt->getNumElements(); ++i) out = b.CreateInsertElement(out, one(b.CreateExtractElement(x, i)), i);
  return out;
}

llvm::Value* libm(Emitter& e, const char* name, llvm::Value* x) {
  llvm::FunctionCallee f = e.mod.getOrInsertFunction(name, llvm::FunctionType::get(e.f64, {e.f64}, false));
  if (auto* fn = llvm::dyn_cast<llvm::Function>(f.getCallee())) {
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    fn->addFnAttr(llvm::Attribute::WillReturn);
  }
  return e.b.CreateCall(f, {x});
}

/// maxnum/minnum (a NaN loses to a number) decide everything except which of two equal
/// operands comes out, and equal floats differ only as +0 and -0: for those the AND of the
/// bits is +0 unless both are -0 (max), the OR is -0 unless both are +0 (min).
llvm::Value* max_min_number(Emitter& e, llvm::Value* x, llvm::Value* y, bool max) {
  llvm::IRBuilder<>& b = e.b;
  llvm::Type* ft = x->getType();
  unsigned lanes = ft->isVectorTy() ? unsigned(llvm::cast<llvm::FixedVectorType>(ft)->getNumElements()) : 0;
  llvm::Type* it = b.getIntNTy(ft->getScalarSizeInBits());
  if (lanes) it = llvm::FixedVectorType::get(it, lanes);
  llvm::Value* num = b.CreateBinaryIntrinsic(max ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum, x, y);
  llvm::Value* xi = b.CreateBitCast(x, it);
  llvm::Value* yi = b.CreateBitCast(y, it);
  llvm::Value* zero = b.CreateBitCast(max ? b.CreateAnd(xi, yi) : b.CreateOr(xi, yi), ft);
  return b.CreateSelect(b.CreateFCmpOEQ(x, y), zero, num);
}

}  // namespace

llvm::Value* Emitter::max_number(llvm::Value* x, llvm::Value* y) { return max_min_number(*this, x, y, true); }
llvm::Value* Emitter::min_number(llvm::Value* x, llvm::Value* y) { return max_min_number(*this, x, y, false); }
llvm::Value* Emitter::exp(llvm::Value* x) { return is_f64(x) ? libm(*this, "exp", x) : f32_math(*this, x).exp(x); }
llvm::Value* Emitter::exp2(llvm::Value* x) { return is_f64(x) ? libm(*this, "exp2", x) : f32_math(*this, x).exp2(x); }
llvm::Value* Emitter::log(llvm::Value* x) { return is_f64(x) ? libm(*this, "log", x) : f32_math(*this, x).log(x); }
llvm::Value* Emitter::tanh(llvm::Value* x) { return is_f64(x) ? libm(*this, "tanh", x) : f32_math(*this, x).tanh(x); }
llvm::Value* Emitter::log2(llvm::Value* x) { return libm_lanes(*this, "log2", x); }
llvm::Value* Emitter::log1p(llvm::Value* x) { return libm_lanes(*this, "log1p", x); }
llvm::Value* Emitter::erf(llvm::Value* x) { return libm_lanes(*this, "erf", x); }
llvm::Value* Emitter::sigmoid(llvm::Value* x) {
  // t = e^-|x| never overflows: 1 / (1 + t) for x >= 0 and t / (1 + t) below, which keeps
  // the tiny results of very negative x (where e^-x would be inf). NaN: t is NaN.
  llvm::Value* one = llvm::ConstantFP::get(x->getType(), 1.0);
  llvm::Value* t = exp(b.CreateFNeg(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x)));
  llvm::Value* num = b.CreateSelect(b.CreateFCmpOGE(x, llvm::ConstantFP::get(x->getType(), 0.0)), one, t);
  return b.CreateFDiv(num, b.CreateFAdd(one, t));
}

}  // namespace tegula::cpu
