// Contractions from a spec (ir/spec/SpecGemm.cpp) compute what the statement says: each form
// is generated, three of its instances (small, mixed and large tiles) run on the reference
// interpreter at shapes with tails in every tile (97 x 71 x 67), and the results are compared
// with a float64 direct computation over the inputs as rounded to their dtypes.
#include <cmath>
#include <functional>

#include "ir/spec/tests/SpecRun.h"

namespace spec_gemm_results_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

constexpr int kM = 97, kN = 71, kK = 67, kB = 2;

// want[b, m, n] = f(sum over k of a(b, m, k) * b(b, k, n), b, m, n).
using Get = std::function<double(const Tensors&, int, int, int)>;
using Epilogue = std::function<double(const Tensors&, double, int, int, int)>;

std::vector<double> direct(const Tensors& t, int batches, const Get& a, const Get& b, const Epilogue& f) {
  std::vector<double> want;
  for (int z = 0; z < batches; ++z)
    for (int m = 0; m < kM; ++m)
      for (int n = 0; n < kN; ++n) {
        double s = 0;
        for (int k = 0; k < kK; ++k) s += a(t, z, m, k) * b(t, z, k, n);
        want.push_back(f(t, s, z, m, n));
      }
  return want;
}

Get at(const char* name, int rows, int cols, bool by_row, int per_batch) {
  // by_row: element (i, j) of the product's view is name[i, j]; else name[j, i].
  return [=](const Tensors& t, int z, int i, int j) {
    return by_row ? t.at(name)[size_t(z * per_batch + i * cols + j)] : t.at(name)[size_t(z * per_batch + j * rows + i)];
  };
}

void check_form(const std::string& spec, const std::string& dtypes, Tensors inputs, const std::map<std::string, double>& numbers,
                const std::function<std::vector<double>(const Tensors&)>& want, double rel) {
  std::string text = spec_kernel(spec, dtypes);
  for (const Binding& b : sample_bindings(text)) {
    CAPTURE(binding_text(b));
    Tensors t = inputs;
    run_instance(text, b, t, numbers);
    check_close(t.at("C"), want(t), rel, 1e-3, spec);
  }
}

Tensors operands(size_t c_size) {
  return {{"A", random_values(kM * kK * kB, 1)}, {"B", random_values(kK * kN * kB, 2)}, {"C", random_values(c_size, 3)}};
}

const std::map<std::string, double> kShape = {{"M", kM}, {"N", kN}, {"K", kK}};
const Epilogue kSum = [](const Tensors&, double s, int, int, int) { return s; };

}  // namespace

TEST_CASE("C[m, n] = A[m, k] * B[k, n]") {
  check_form("C[m, n] = A[m, k] * B[k, n]", "A=bf16,B=bf16,C=f32", operands(kM * kN), kShape,
             [](const Tensors& t) { return direct(t, 1, at("A", kM, kK, true, 0), at("B", kK, kN, true, 0), kSum); }, 1e-5);
}

TEST_CASE("transposed operands by index order: A[k, m] is trans_a, B[n, k] is trans_b") {
  std::string text = spec_kernel("C[m, n] = A[k, m] * B[n, k]", "A=bf16,B=bf16,C=f32");
  CHECK(text.find("trans_a=true, trans_b=true") != std::string::npos);
  CHECK(text.find("alloc A_s: shared bf16[BK, BM]") != std::string::npos);
  check_form("C[m, n] = A[k, m] * B[n, k]", "A=bf16,B=bf16,C=f32", operands(kM * kN), kShape,
             [](const Tensors& t) { return direct(t, 1, at("A", kM, kK, false, 0), at("B", kK, kN, false, 0), kSum); },
             1e-5);
  // The operands in the other order, and the output transposed: B's rows are C's rows.
  check_form("C[n, m] = A[m, k] * B[k, n]", "A=bf16,B=bf16,C=f32", operands(kM * kN),
             {{"M", kN}, {"N", kM}, {"K", kK}}, [](const Tensors& t) {
               // C[n, m]: rows n in [0, kM) here since M and N are bound swapped.
               return direct(t, 1, at("B", kM, kK, false, 0), at("A", kK, kN, false, 0), kSum);
             },
             1e-5);
}

TEST_CASE("C[m, n] += A[m, k] * B[k, n] starts from C, in bf16") {
  Tensors in = operands(kM * kN);
  check_form("C[m, n] += A[m, k] * B[k, n]", "A=bf16,B=bf16,C=bf16", in, kShape,
             [in](const Tensors& t) {
               std::vector<double> c0 = in.at("C");  // C as it was, rounded to bf16 as the kernel read it
               return direct(t, 1, at("A", kM, kK, true, 0), at("B", kK, kN, true, 0),
                             [c0](const Tensors&, double s, int, int m, int n) {
                               return s + round_to_dtype(DType::BF16, c0[size_t(m * kN + n)]);
                             });
             },
             8e-3);
}

TEST_CASE("batched: C[b, m, n] = A[b, m, k] * B[b, k, n] (grid z, 3-D views)") {
  std::map<std::string, double> numbers = kShape;
  numbers["B_"] = kB;
  check_form("C[b, m, n] = A[b, m, k] * B[b, k, n]", "A=bf16,B=bf16,C=f32", operands(kB * kM * kN), numbers,
             [](const Tensors& t) {
               return direct(t, kB, at("A", kM, kK, true, kM * kK), at("B", kK, kN, true, kK * kN), kSum);
             },
             1e-5);
}

}  // namespace spec_gemm_results_test
