// The transcendental functions the generator writes out itself (codegen/Math.cpp: every f64
// one, and f32 log1p, tanh, erf and sigmoid) stay within the conformance table's ulp limits of
// a long double oracle, with the reference's infinities, NaNs, signed zeros and subnormals
// (the inputs and the measure are the Vulkan test's: plugins/support/testing/MathAccuracy.h).
// The IR is target-independent arithmetic, so the same functions are JIT-compiled for the host
// CPU and called directly. The f32 exp, exp2, log and log2 the AMDGPU backend expands are not
// the generator's code and are not tried here (on the host they would be libm's). A kernel
// calling every function compiles for gfx942 with no scratch and no call.
#include <string>
#include <vector>

#include "plugins/hip/codegen/Emitter.h"
#include "plugins/hip/tests/HipTest.h"
#include "plugins/hip/tests/HostJit.h"
#include "plugins/support/testing/MathAccuracy.h"

namespace math_accuracy_test {

using namespace tegula;
using namespace tegula::plugin::testing;

namespace {

ir::UnaryOp op_of(const MathFunction& fn) {
  std::string_view n = fn.name;
  if (n == "exp") return ir::UnaryOp::Exp;
  if (n == "exp2") return ir::UnaryOp::Exp2;
  if (n == "log") return ir::UnaryOp::Log;
  if (n == "log2") return ir::UnaryOp::Log2;
  if (n == "log1p") return ir::UnaryOp::Log1p;
  if (n == "tanh") return ir::UnaryOp::Tanh;
  if (n == "erf") return ir::UnaryOp::Erf;
  return ir::UnaryOp::Sigmoid;
}

/// Whether the generator writes `fn` out itself for the format (what this test can try).
bool written_out(const MathFunction& fn, bool f64) {
  std::string_view n = fn.name;
  return f64 || !(n == "exp" || n == "exp2" || n == "log" || n == "log2");
}

std::string symbol(const MathFunction& fn, bool f64) { return std::string(fn.name) + (f64 ? "_f64" : "_f32"); }

/// y = fn(x), one JIT-compiled function per (function, format) the generator writes out.
struct Functions {
  std::unique_ptr<llvm::orc::LLJIT> jit;

  static Functions& get() {
    static Functions f = build();
    return f;
  }
  static Functions build() {
    hip::testing::init_host_target();
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto mod = std::make_unique<llvm::Module>("math", *ctx);
    ir::Kernel kernel;
    TargetDescription target;
    hip::Emitter em(kernel, target, *ctx, *mod);
    for (const MathFunction* fn : math_functions())
      for (bool f64 : {false, true}) {
        if (!written_out(*fn, f64)) continue;
        llvm::Type* t = f64 ? em.f64 : em.f32;
        auto* fty = llvm::FunctionType::get(t, {t}, false);
        auto* f = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, symbol(*fn, f64), *mod);
        em.b.SetInsertPoint(llvm::BasicBlock::Create(*ctx, "entry", f));
        llvm::Value* y = em.math_function(op_of(*fn), {f->getArg(0), f64 ? hip::VK::F64 : hip::VK::F32});
        REQUIRE_MESSAGE(y, fn->name);
        em.b.CreateRet(y);
      }
    Functions out;
    out.jit = hip::testing::host_jit(std::move(mod), std::move(ctx));
    return out;
  }
};

template <typename F>
void check_function(const MathFunction& fn) {
  auto* f = hip::testing::host_function<F (*)(F)>(*Functions::get().jit, symbol(fn, sizeof(F) == 8));
  std::vector<F> xs = math_inputs<F>(fn);
  std::vector<F> ys(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) ys[i] = f(xs[i]);
  MathReport r = check_math<F>(fn, xs, ys);
  for (const std::string& failure : r.failures) FAIL_CHECK(failure);
  std::string summary = std::string(fn.name) + "." + math_dtype_name<F>() + ": " + std::to_string(r.inputs) + " inputs, worst: " + r.worst_text;
  MESSAGE(summary);
  CHECK(r.failure_count == 0);
}

}  // namespace

TEST_CASE("f64 exp, exp2, log, log2, log1p, tanh, erf and sigmoid are within the conformance table's ulps") {
  for (const MathFunction* fn : math_functions()) check_function<double>(*fn);
}

TEST_CASE("f32 log1p, tanh, erf and sigmoid are within the conformance table's ulps") {
  for (const MathFunction* fn : math_functions())
    if (written_out(*fn, false)) check_function<float>(*fn);
}

TEST_CASE("a kernel calling every function, f32 and f64, compiles for gfx942 with no scratch and no call") {
  for (const char* dt : {"f32", "f64"}) {
    std::string d = dt;
    CAPTURE(d);
    std::string text = "kernel k(X: " + d + "[N], Y: " + d + "[N]) grid(ceildiv(N, 256)) threads(256) {\n  alloc x: fragment " +
                       d + "[256]\n  alloc y: fragment " + d + "[256]\n  copy X[bx * 256], x\n" +
                       "  map y = exp(x) + exp2(x) + log(x) + log2(x) + log1p(x) + tanh(x) + erf(x) + sigmoid(x)\n" +
                       "  copy y, Y[bx * 256]\n}\n";
    auto code = hip::testing::assembly_for(text);
    REQUIRE_MESSAGE(code.is_ok(), code.status().str());
    CHECK(hip::testing::asm_number(*code, ".amdhsa_private_segment_fixed_size ") == 0);
    CHECK(hip::testing::asm_number(*code, ".vgpr_spill_count:") == 0);
    CHECK_FALSE(hip::testing::contains(*code, "s_swappc"));  // no library call
    CHECK(hip::testing::contains(*code, d == "f64" ? "v_rndne_f64" : "v_rndne_f32"));  // the recipes' reduction
  }
}

}  // namespace math_accuracy_test
