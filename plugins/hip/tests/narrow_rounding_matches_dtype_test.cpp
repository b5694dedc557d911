// The generator's rounding to f16, bf16, tf32, e4m3 and e5m2 (codegen/Narrow.cpp) and to the
// other narrow floats (codegen/NarrowGeneric.cpp: FNUZ fp8, fp6, fp4, e8m0, ue4m3) gives the
// bits core/DType.h's store_element gives, from f32 and from f64 values, and the generic
// decoder gives load_element's value for every encoding. The generated IR is
// target-independent, so the same functions are JIT-compiled for the host CPU and run over
// every f32 near each dtype's edges (subnormals, ties, the largest finite values, overflow,
// infinities, NaNs) and a sample of all others, and over f64 values around the same edges.
#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "plugins/hip/codegen/Emitter.h"
#include "plugins/hip/tests/HipTest.h"
#include "plugins/hip/tests/HostJit.h"

namespace narrow_rounding_matches_dtype_test {

using namespace tegula;

namespace {

const DType kNarrow[] = {DType::F16,      DType::BF16,     DType::TF32, DType::E4M3, DType::E5M2, DType::E4M3FNUZ,
                         DType::E5M2FNUZ, DType::E2M3,     DType::E3M2, DType::E2M1, DType::E8M0, DType::UE4M3};
const DType kGeneric[] = {DType::E4M3FNUZ, DType::E5M2FNUZ, DType::E2M3, DType::E3M2, DType::E2M1, DType::E8M0, DType::UE4M3};

/// bits = f(x): one JIT-compiled encoder per (dtype, source width); x = g(bits): one decoder
/// per generic dtype.
struct Encoders {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::map<std::string, void*> fns;

  static Encoders& get() {
    static Encoders e = build();
    return e;
  }
  static Encoders build() {
    hip::testing::init_host_target();
    Encoders out;
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto mod = std::make_unique<llvm::Module>("narrow", *ctx);
    ir::Kernel kernel;
    TargetDescription target;
    hip::Emitter em(kernel, target, *ctx, *mod);
    for (DType d : kNarrow)
      for (bool wide : {false, true}) {
        llvm::Type* in = wide ? em.f64 : em.f32;
        auto* fty = llvm::FunctionType::get(em.i64, {in}, false);
        std::string name = std::string(dtype_name(d)) + (wide ? "_f64" : "_f32");
        auto* fn = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, name, *mod);
        em.b.SetInsertPoint(llvm::BasicBlock::Create(*ctx, "entry", fn));
        auto raw = em.encode(d, {fn->getArg(0), wide ? hip::VK::F64 : hip::VK::F32});
        REQUIRE_MESSAGE(raw.is_ok(), raw.status().str());
        llvm::Value* v = *raw;
        unsigned bits = unsigned(dtype_size(d) * 8);
        v = em.b.CreateBitCast(v, em.b.getIntNTy(bits));
        em.b.CreateRet(em.b.CreateZExt(v, em.i64));
      }
    for (DType d : kGeneric) {
      auto* fty = llvm::FunctionType::get(em.f32, {em.i8}, false);
      std::string name = std::string(dtype_name(d)) + "_decode";
      auto* fn = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, name, *mod);
      em.b.SetInsertPoint(llvm::BasicBlock::Create(*ctx, "entry", fn));
      em.b.CreateRet(em.decode_generic(d, fn->getArg(0)));
    }
    out.jit = hip::testing::host_jit(std::move(mod), std::move(ctx));
    for (DType d : kNarrow)
      for (const char* w : {"_f32", "_f64"}) {
        std::string name = std::string(dtype_name(d)) + w;
        out.fns[name] = hip::testing::host_function<void*>(*out.jit, name);
      }
    for (DType d : kGeneric) {
      std::string name = std::string(dtype_name(d)) + "_decode";
      out.fns[name] = hip::testing::host_function<void*>(*out.jit, name);
    }
    return out;
  }
};

uint64_t expected(DType d, double x) {
  unsigned char buf[8] = {0};
  store_element(d, x, buf);
  uint64_t bits = 0;
  std::memcpy(&bits, buf, dtype_size(d));
  return bits;
}

/// Every f32 whose bits are within `radius` of each anchor, and `samples` random others.
std::vector<float> f32_inputs(DType d, int radius, int samples) {
  std::vector<double> anchors = {0.0,
                                 std::ldexp(1.0, -149),
                                 std::ldexp(1.0, -126),
                                 std::ldexp(1.0, -136),
                                 std::ldexp(1.0, -133),
                                 std::ldexp(1.0, -24),
                                 std::ldexp(1.0, -14),
                                 std::ldexp(1.0, -16),
                                 std::ldexp(1.0, -9),
                                 std::ldexp(1.0, -6),
                                 1.0,
                                 1.5,
                                 448.0,
                                 464.0,
                                 480.0,
                                 57344.0,
                                 61440.0,
                                 65504.0,
                                 65520.0,
                                 3.3895313892515355e38,
                                 3.4028234663852886e38,
                                 INFINITY,
                                 // The generic formats' edges: maxima and the steps past them,
                                 // smallest subnormals, e8m0's range.
                                 6.0, 7.0, 7.5, 7.75, 28.0, 30.0, 240.0, 248.0, 0.125, 0.0625, 0.5, 3.0, 12.0, 0.375,
                                 std::ldexp(1.0, -10), std::ldexp(1.0, -17), std::ldexp(1.0, -127),
                                 std::ldexp(1.0, -128), std::ldexp(1.0, 127)};
  anchors.push_back(double(round_to_dtype(d, 1.0)));
  std::vector<float> out;
  for (double a : anchors) {
    uint32_t c = std::bit_cast<uint32_t>(float(a));
    for (int o = -radius; o <= radius; ++o) {
      uint32_t u = c + uint32_t(o);
      out.push_back(std::bit_cast<float>(u));
      out.push_back(-std::bit_cast<float>(u));
    }
  }
  std::mt19937 rng(17);
  for (int i = 0; i < samples; ++i) out.push_back(std::bit_cast<float>(uint32_t(rng())));
  out.push_back(std::nanf(""));
  out.push_back(-std::nanf(""));
  return out;
}

}  // namespace

TEST_CASE("rounding an f32 to each narrow float matches core/DType.h") {
  Encoders& e = Encoders::get();
  for (DType d : kNarrow) {
    std::string name = dtype_name(d);
    CAPTURE(name);
    auto fn = reinterpret_cast<uint64_t (*)(float)>(e.fns[name + "_f32"]);
    int wrong = 0;
    for (float x : f32_inputs(d, 4096, 200000)) {
      uint64_t got = fn(x), want = expected(d, double(x));
      if (got != want && ++wrong <= 5)
        FAIL_CHECK(name << "(" << x << " = 0x" << std::hex << std::bit_cast<uint32_t>(x) << "): 0x" << got
                        << ", core 0x" << want);
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("rounding an f64 to each narrow float rounds once, as core/DType.h") {
  Encoders& e = Encoders::get();
  for (DType d : kNarrow) {
    std::string name = dtype_name(d);
    CAPTURE(name);
    auto fn = reinterpret_cast<uint64_t (*)(double)>(e.fns[name + "_f64"]);
    std::vector<double> xs;
    // Each f32 input and its neighbours in f64: ties of the narrow dtype and the values one
    // f64 ulp beside them, which rounding twice through f32 gets wrong.
    for (float f : f32_inputs(d, 512, 50000)) {
      double x = double(f);
      xs.push_back(x);
      xs.push_back(std::nextafter(x, INFINITY));
      xs.push_back(std::nextafter(x, -INFINITY));
    }
    xs.push_back(1e300);
    xs.push_back(-1e300);
    xs.push_back(5e-324);
    int wrong = 0;
    for (double x : xs) {
      uint64_t got = fn(x), want = expected(d, x);
      if (got != want && ++wrong <= 5)
        FAIL_CHECK(name << "(" << x << "): 0x" << std::hex << got << ", core 0x" << want);
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("the generic decoder gives every encoding's value") {
  Encoders& e = Encoders::get();
  for (DType d : kGeneric) {
    std::string name = dtype_name(d);
    CAPTURE(name);
    auto fn = reinterpret_cast<float (*)(uint8_t)>(e.fns[name + "_decode"]);
    int wrong = 0;
    for (uint32_t code = 0; code < 256; ++code) {
      uint8_t byte = uint8_t(code);
      double want = load_element(d, &byte), got = double(fn(byte));
      bool ok = std::isnan(want) ? std::isnan(got) && std::signbit(got) == std::signbit(want) : got == want;
      if (!ok && ++wrong <= 5) FAIL_CHECK(name << "(0x" << std::hex << code << "): " << got << ", core " << want);
    }
    CHECK(wrong == 0);
  }
}

}  // namespace narrow_rounding_matches_dtype_test
