// Epilogues from a spec (ir/spec/SpecGemm.cpp): gelu of the product plus a bias along the
// columns, scaled by a scalar; a bias along the rows (declared [M, 1]); a residual tensor of
// the output's indices; a cast; and += after an epilogue. Each runs three instances on the
// reference interpreter against a float64 direct computation, at 97 x 71 x 67.
#include <cmath>
#include <functional>

#include "ir/spec/tests/SpecRun.h"

namespace spec_epilogue_results_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

constexpr int kM = 97, kN = 71, kK = 67;

const std::map<std::string, double> kShape = {{"M", kM}, {"N", kN}, {"K", kK}, {"alpha", 0.75}};

double product(const Tensors& t, int m, int n) {
  double s = 0;
  for (int k = 0; k < kK; ++k) s += t.at("A")[size_t(m * kK + k)] * t.at("B")[size_t(k * kN + n)];
  return s;
}

using Elem = std::function<double(const Tensors&, double, int, int)>;

void check_epilogue(const std::string& spec, const std::string& dtypes, Tensors extra, const Elem& f, double rel) {
  std::string text = spec_kernel(spec, dtypes);
  CHECK(text.find("map acc = ") != std::string::npos);
  Tensors inputs = {{"A", random_values(kM * kK, 1)}, {"B", random_values(kK * kN, 2)},
                    {"C", random_values(kM * kN, 3)}};
  for (auto& [name, v] : extra) inputs[name] = v;
  for (const Binding& b : sample_bindings(text)) {
    CAPTURE(binding_text(b));
    Tensors t = inputs;
    run_instance(text, b, t, kShape);
    std::vector<double> want;
    for (int m = 0; m < kM; ++m)
      for (int n = 0; n < kN; ++n) want.push_back(f(t, product(t, m, n), m, n));
    check_close(t.at("C"), want, rel, 1e-3, spec);
  }
}

double gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

}  // namespace

TEST_CASE("C[m, n] = gelu(A[m, k] * B[k, n] + bias[n]) * alpha") {
  check_epilogue("C[m, n] = gelu(A[m, k] * B[k, n] + bias[n]) * alpha", "A=bf16,B=bf16,C=bf16,bias=f32",
                 {{"bias", random_values(kN, 4)}},
                 [](const Tensors& t, double s, int, int n) { return gelu(s + t.at("bias")[size_t(n)]) * 0.75; }, 8e-3);
}

TEST_CASE("a bias along the rows, a residual and relu") {
  check_epilogue("C[m, n] = relu(A[m, k] * B[k, n] + r[m]) + R[m, n]", "A=bf16,B=bf16,C=f32,r=bf16,R=bf16",
                 {{"r", random_values(kM, 5)}, {"R", random_values(kM * kN, 6)}},
                 [](const Tensors& t, double s, int m, int n) {
                   return std::max(s + t.at("r")[size_t(m)], 0.0) + t.at("R")[size_t(m * kN + n)];
                 },
                 1e-5);
}

TEST_CASE("a cast in the epilogue rounds there") {
  check_epilogue("C[m, n] = cast<f16>(A[m, k] * B[k, n]) * 3 - 1", "A=bf16,B=bf16,C=f32", {},
                 [](const Tensors&, double s, int, int) { return round_to_dtype(DType::F16, s) * 3 - 1; }, 1e-5);
}

TEST_CASE("+= after an epilogue adds the output's old value last") {
  Tensors c0 = {{"C", random_values(kM * kN, 3)}};
  check_epilogue("C[m, n] += silu(A[m, k] * B[k, n]) / 2", "A=bf16,B=bf16,C=f32", {},
                 [c0](const Tensors&, double s, int m, int n) {
                   return c0.at("C")[size_t(m * kN + n)] + s / (1 + std::exp(-s)) / 2;
                 },
                 1e-5);
}

}  // namespace spec_epilogue_results_test
