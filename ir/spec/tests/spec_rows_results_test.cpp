// Row reductions and softmax from a spec (ir/spec/SpecRows.cpp): sum, max and min over the
// last index, with an elementwise function inside (masked at the column tail) and one after,
// batched rows, += for sum, and softmax with a scale; three instances each on the reference
// interpreter at 37 x 300 (tails along both axes, several column tiles), against float64.
#include <algorithm>
#include <cmath>
#include <functional>

#include "ir/spec/tests/SpecRun.h"

namespace spec_rows_results_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

constexpr int kM = 37, kN = 300, kB = 2;

using Row = std::function<double(const std::vector<double>& row)>;

// want[z, m] = f(row z, m of X) for every batch and row.
void check_rows(const std::string& spec, const std::string& dtypes, int batches, const Row& f, Tensors extra = {}) {
  std::string text = spec_kernel(spec, dtypes);
  std::map<std::string, double> numbers = {{"M", kM}, {"N", kN}, {"B", kB}, {"scale", 0.5}};
  Tensors inputs = {{"X", random_values(size_t(batches) * kM * kN, 7)}, {"Y", std::vector<double>(size_t(batches) * kM, 0)}};
  for (auto& [name, v] : extra) inputs[name] = v;
  for (const Binding& b : sample_bindings(text)) {
    CAPTURE(binding_text(b));
    Tensors t = inputs;
    run_instance(text, b, t, numbers);
    std::vector<double> want;
    for (int r = 0; r < batches * kM; ++r) {
      std::vector<double> row(t.at("X").begin() + r * kN, t.at("X").begin() + (r + 1) * kN);
      want.push_back(f(row));
    }
    check_close(t.at("Y"), want, 1e-5, 1e-5, spec);
  }
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

}  // namespace

TEST_CASE("Y[m] = sum(X[m, n]), max and min") {
  check_rows("Y[m] = sum(X[m, n])", "X=f16,Y=f32", 1, sum);
  check_rows("Y[m] = max(X[m, n])", "X=f16,Y=f32", 1,
             [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); });
  check_rows("Y[m] = min(X[m, n])", "X=bf16,Y=f32", 1,
             [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); });
}

TEST_CASE("a function inside the reduction is masked at the tail; one after it applies per row") {
  // exp(0) = 1 would count the padded columns if the select were missing.
  check_rows("Y[m] = log(sum(exp(X[m, n])))", "X=f16,Y=f32", 1, [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += std::exp(x);
    return std::log(s);
  });
  check_rows("Y[m] = max(abs(X[m, n]) * scale)", "X=f16,Y=f32", 1, [](const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m = std::max(m, std::fabs(x) * 0.5);
    return m;
  });
}

TEST_CASE("batched rows and += for sum") {
  check_rows("Y[b, m] = sum(X[b, m, n])", "X=f16,Y=f32", kB, sum);
  std::vector<double> y0 = random_values(kM, 8);
  check_rows("Y[m] += sum(X[m, n])", "X=f16,Y=f32", 1, [&, r = 0](const std::vector<double>& v) mutable {
    return y0[size_t(r++ % kM)] + sum(v);
  }, {{"Y", y0}});
}

TEST_CASE("Y[m, n] = softmax(X[m, n] * scale, n)") {
  for (const char* spec : {"Y[m, n] = softmax(X[m, n], n)", "Y[m, n] = softmax(X[m, n] * scale, n)"}) {
    double scale = std::string(spec).find("scale") != std::string::npos ? 0.5 : 1.0;
    std::string text = spec_kernel(spec, "X=f16,Y=f32");
    std::map<std::string, double> numbers = {{"M", kM}, {"N", kN}, {"scale", 0.5}};
    for (const Binding& b : sample_bindings(text)) {
      CAPTURE(binding_text(b));
      Tensors t = {{"X", random_values(kM * kN, 9)}, {"Y", std::vector<double>(kM * kN, 0)}};
      for (double& x : t["X"]) x *= 8;  // a spread of magnitudes, so the running maximum matters
      run_instance(text, b, t, numbers);
      std::vector<double> want;
      for (int m = 0; m < kM; ++m) {
        double mx = -INFINITY, s = 0;
        for (int n = 0; n < kN; ++n) mx = std::max(mx, t["X"][size_t(m * kN + n)] * scale);
        for (int n = 0; n < kN; ++n) s += std::exp(t["X"][size_t(m * kN + n)] * scale - mx);
        for (int n = 0; n < kN; ++n) want.push_back(std::exp(t["X"][size_t(m * kN + n)] * scale - mx) / s);
      }
      check_close(t["Y"], want, 1e-5, 1e-7, spec);
    }
  }
}

}  // namespace spec_rows_results_test
