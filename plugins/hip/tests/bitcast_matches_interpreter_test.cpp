// The generator's bitcast<to>(x) (codegen/Expr.cpp, Emitter::bitcast_value) gives what the
// reference interpreter's does (ir/BitOps.h bitcast_value), for every pair of dtypes the
// conformance suite casts between: over every bit pattern of the 8- and 16-bit dtypes and,
// for i32, f32 and f64, their special values and a sample of random patterns. The generated
// IR is target-independent, so it is JIT-compiled for the host CPU and run here; on gfx942 the
// same IR is compiled by the conformance run (tegula.map.bitcast.* CompileOnly).
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "ir/BitOps.h"
#include "plugins/hip/codegen/Emitter.h"
#include "plugins/hip/tests/HipTest.h"
#include "plugins/hip/tests/HostJit.h"

namespace bitcast_matches_interpreter_test {

using namespace tegula;

namespace {

const std::pair<DType, DType> kPairs[] = {{DType::I32, DType::F32}, {DType::F32, DType::I32}, {DType::U8, DType::E4M3},
                                          {DType::E4M3, DType::U8}, {DType::I8, DType::U8},   {DType::U8, DType::I8},
                                          {DType::E5M2, DType::I8}, {DType::I8, DType::E5M2}, {DType::F16, DType::BF16},
                                          {DType::BF16, DType::F16}, {DType::F64, DType::F64}};

std::string fn_name(DType from, DType to) { return std::string("bitcast_") + dtype_name(from) + "_" + dtype_name(to); }

/// y = bitcast<to>(x) as doubles, x a value of dtype `from`: one JIT-compiled function a pair.
struct Bitcasts {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::map<std::string, double (*)(double)> fns;

  static Bitcasts& get() {
    static Bitcasts b = build();
    return b;
  }
  static Bitcasts build() {
    hip::testing::init_host_target();
    Bitcasts out;
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto mod = std::make_unique<llvm::Module>("bitcast", *ctx);
    ir::Kernel kernel;
    TargetDescription target;
    hip::Emitter em(kernel, target, *ctx, *mod);
    for (auto [from, to] : kPairs) {
      auto* fty = llvm::FunctionType::get(em.f64, {em.f64}, false);
      auto* fn = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, fn_name(from, to), *mod);
      em.b.SetInsertPoint(llvm::BasicBlock::Create(*ctx, "entry", fn));
      // x as the generator holds a value of `from`: an integer as i64, a float as f32 or f64.
      hip::VK k = hip::Emitter::kind_of(from);
      llvm::Value* x = fn->getArg(0);
      if (k == hip::VK::Index) x = em.b.CreateFPToSI(x, em.i64);
      else if (k == hip::VK::F32) x = em.b.CreateFPTrunc(x, em.f32);
      auto y = em.bitcast_value(from, to, {x, k});
      REQUIRE_MESSAGE(y.is_ok(), y.status().str());
      llvm::Value* r = y->v;
      if (y->k == hip::VK::Index) r = em.b.CreateSIToFP(r, em.f64);
      else if (y->k == hip::VK::F32) r = em.b.CreateFPExt(r, em.f64);
      em.b.CreateRet(r);
    }
    out.jit = hip::testing::host_jit(std::move(mod), std::move(ctx));
    for (auto [from, to] : kPairs)
      out.fns[fn_name(from, to)] = hip::testing::host_function<double (*)(double)>(*out.jit, fn_name(from, to));
    return out;
  }
};

/// Every value of `d` for dtypes of one or two bytes; for wider ones the special patterns
/// (zeros, the smallest subnormals, the extremes, infinities, NaNs) and `samples` random ones.
std::vector<double> values_of(DType d, int samples) {
  std::vector<uint64_t> patterns;
  size_t size = dtype_size(d);
  if (size <= 2) {
    for (uint64_t p = 0; p < (uint64_t(1) << (8 * size)); ++p) patterns.push_back(p);
  } else {
    uint64_t sign = uint64_t(1) << (8 * size - 1), all = size == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * size)) - 1;
    for (uint64_t p : {uint64_t(0), uint64_t(1), uint64_t(2), sign - 1, sign - 2, all / 2 + 1})
      for (uint64_t s : {uint64_t(0), sign}) patterns.push_back((p | s) & all);
    if (d == DType::F32)
      for (uint64_t p : {0x7f800000ull, 0x7fc00000ull, 0x7f800001ull, 0x00800000ull, 0x007fffffull})
        for (uint64_t s : {uint64_t(0), sign}) patterns.push_back(p | s);
    if (d == DType::F64)
      for (uint64_t p : {0x7ff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull, 0x0010000000000000ull})
        for (uint64_t s : {uint64_t(0), sign}) patterns.push_back(p | s);
    std::mt19937_64 rng(23);
    for (int i = 0; i < samples; ++i) patterns.push_back(rng() & all);
  }
  std::vector<double> out;
  for (uint64_t p : patterns) {
    uint8_t bytes[8];
    std::memcpy(bytes, &p, 8);
    out.push_back(load_element(d, bytes));
  }
  return out;
}

/// Equal as values: the same bits, or both NaN with the same sign.
bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) && std::signbit(a) == std::signbit(b);
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

}  // namespace

TEST_CASE("bitcast matches the reference interpreter for every pair the suite casts between") {
  Bitcasts& bc = Bitcasts::get();
  for (auto [from, to] : kPairs) {
    std::string name = fn_name(from, to);
    CAPTURE(name);
    auto fn = bc.fns.at(name);
    int wrong = 0, checked = 0;
    for (double x : values_of(from, 100000)) {
      double got = fn(x), want = ir::bitcast_value(from, to, x);
      ++checked;
      if (!same(got, want) && ++wrong <= 5) FAIL_CHECK(name << "(" << x << "): " << got << ", the interpreter " << want);
    }
    CHECK(checked > 200);
    CHECK(wrong == 0);
  }
}

}  // namespace bitcast_matches_interpreter_test
