// exp, exp2, log, tanh, log2, log1p, erf and sigmoid on the device, in f32 and f64, stay
// within the conformance table's ulp limits (conformance/tolerances.json: 3 ulp, 5 for tanh,
// 4 for log1p and sigmoid) of a long double oracle over
// wide random ranges, values near overflow and underflow, subnormal inputs and results, and
// the special values (inf, NaN, -0), which must come out exactly as the float64 reference
// gives them (the signs of zero results included). Every module passes spirv-val.
#include <cstdint>
#include <string>
#include <vector>

#include "plugins/support/testing/MathAccuracy.h"
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace math_accuracy_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

using Function = plugin::testing::MathFunction;
using namespace plugin::testing;

/// Run `map y = fn(x)` over `xs` on the device; the results, or an error in `why`.
template <typename F>
std::vector<F> run_device(const Function& fn, const std::vector<F>& xs, std::string& why) {
  const char* dt = math_dtype_name<F>();
  std::string text = std::string("kernel m(X: ") + dt + "[N], Y: " + dt + "[N]) grid(ceildiv(N, 256)) threads(256) {\n" +
                     "  alloc x: fragment " + dt + "[256]\n  copy X[bx * 256], x\n  map x = " + fn.name +
                     "(x)\n  copy x, Y[bx * 256]\n}\n";
  Env& e = env();
  if (e.target) {
    auto shader = generate_for(text, *e.target);
    if (!shader.is_ok()) return why = "generate: " + shader.status().str(), std::vector<F>{};
    std::string verdict = spirv_val(shader->words);
    if (!verdict.empty() && verdict != "skip") return why = "spirv-val: " + verdict, std::vector<F>{};
  }
  CompileOptions co;
  co.use_cache = false;
  auto kernel = e.dev->compile(text, co);
  if (!kernel.is_ok()) return why = "compile: " + kernel.status().str(), std::vector<F>{};
  size_t bytes = xs.size() * sizeof(F);
  auto in = e.dev->alloc(bytes);
  auto out = e.dev->alloc(bytes);
  if (!in.is_ok() || !out.is_ok()) return why = "alloc failed", std::vector<F>{};
  std::vector<uint8_t> poison(bytes, 0xff);
  if (!in->write(xs.data(), bytes).is_ok() || !out->write(poison.data(), bytes).is_ok()) return why = "write failed", std::vector<F>{};
  Status l = kernel->launch({Arg::tensor(*in), Arg::tensor(*out), Arg::integer(int64_t(xs.size()))});
  if (!l.is_ok()) return why = "launch: " + l.str(), std::vector<F>{};
  if (Status s = e.dev->synchronize(); !s.is_ok()) return why = "synchronize: " + s.str(), std::vector<F>{};
  std::vector<F> ys(xs.size());
  if (!out->read(ys.data(), bytes).is_ok()) return why = "read failed", std::vector<F>{};
  return ys;
}

/// Run every input on the device and check each against the tolerance; reports the worst.
template <typename F>
void check_function(const Function& fn, const std::vector<F>& xs) {
  std::string why;
  std::vector<F> ys = run_device(fn, xs, why);
  std::string where = std::string(fn.name) + "." + math_dtype_name<F>() + ": " + why;
  REQUIRE_MESSAGE(why.empty(), where);
  MathReport r = check_math<F>(fn, xs, ys);
  for (const std::string& f : r.failures) FAIL_CHECK(f);
  MESSAGE(r.inputs << " inputs, worst: " << r.worst_text);
  CHECK(r.failure_count == 0);
}

}  // namespace

TEST_CASE("log2 within 3 ulp (exact on powers of two) and log1p within 4 ulp, near 0 and -1 included") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kLog2, log_inputs<float>());
  check_function<float>(kLog1p, log1p_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kLog2, log_inputs<double>());
  check_function<double>(kLog1p, log1p_inputs<double>());
}

TEST_CASE("erf within 3 ulp and sigmoid within 4 ulp, tiny, subnormal and saturated results included") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kErf, erf_inputs<float>());
  check_function<float>(kSigmoid, sigmoid_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kErf, erf_inputs<double>());
  check_function<double>(kSigmoid, sigmoid_inputs<double>());
}

TEST_CASE("exp and exp2 are within 3 ulp, subnormal results and overflow included") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kExp, exp_inputs<float>());
  check_function<float>(kExp2, exp2_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kExp, exp_inputs<double>());
  check_function<double>(kExp2, exp2_inputs<double>());
}

TEST_CASE("log is within 3 ulp over every binade, subnormal inputs included") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kLog, log_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kLog, log_inputs<double>());
}

TEST_CASE("tanh is within 5 ulp, keeps tiny and signed arguments and saturates") {
  TG_REQUIRE_VULKAN_DEVICE();
  check_function<float>(kTanh, tanh_inputs<float>());
  if (!env().target || !env().target->has_dtype(DType::F64)) return;
  check_function<double>(kTanh, tanh_inputs<double>());
}

}  // namespace math_accuracy_test
