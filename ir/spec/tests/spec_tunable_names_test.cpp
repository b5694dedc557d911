// A tensor or scalar named like one of the generated kernel's tunables (a residual R, a scale
// S, a table T, a weight W, a matrix BM) does not break the kernel: the tunable takes a _
// until its name is free, the shape symbols keep apart from both, and the kernel's tune space
// parses and its instances run right on the reference interpreter. Before, `tegula spec`
// wrote kernels that `tegula check` refused ("tunable S is also a parameter").
#include <set>

#include "ir/spec/tests/SpecRun.h"

namespace spec_tunable_names_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

std::set<std::string> tunable_names(const std::string& text) {
  auto space = parse_tune_space(text, "spec.tile");
  REQUIRE_MESSAGE(space.is_ok(), (space.status().str() + "\n" + text));
  std::set<std::string> out;
  for (const auto& t : space->tunables) out.insert(t.name);
  return out;
}

}  // namespace

TEST_CASE("gemm operands named S and BM: the stage count and block rows are renamed") {
  std::string text = spec_kernel("C[m, n] = BM[m, k] * S[k, n]", "BM=f32,S=f32,C=f32");
  std::set<std::string> names = tunable_names(text);
  CHECK(names == std::set<std::string>{"BM_", "BN", "BK", "S_", "T", "R"});
  CHECK(text.find("stages=S_") != std::string::npos);
  CHECK(text.find("BM: f32[M, K]") != std::string::npos);  // the tensor keeps its name
  const int m = 19, n = 23, k = 17;
  Tensors t = {{"BM", random_values(m * k, 1)}, {"S", random_values(k * n, 2)}, {"C", std::vector<double>(m * n, 0)}};
  Binding b = sample_bindings(text)[1];
  run_instance(text, b, t, {{"M", m}, {"N", n}, {"K", k}});
  std::vector<double> want;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p) s += t.at("BM")[size_t(i * k + p)] * t.at("S")[size_t(p * n + j)];
      want.push_back(s);
    }
  check_close(t.at("C"), want, 1e-5, 1e-5, binding_text(b));
}

TEST_CASE("a residual named R keeps the raster group apart") {
  std::string text = spec_kernel("C[m, n] = A[m, k] * B[k, n] + R[m, n]", "A=bf16,B=bf16,C=f32,R=f32");
  CHECK(tunable_names(text).count("R_") == 1);
  CHECK(text.find("raster=R_") != std::string::npos);
}

TEST_CASE("row reductions over tensors named T and W, with an index s") {
  std::string text = spec_kernel("Y[s] = sum(T[s, n]) * W", "T=f32,Y=f32,W=f32");
  CHECK(tunable_names(text) == std::set<std::string>{"R", "W_", "T_"});
  // The index s still gets S_ (S is the usual stage count's name), never a tunable's name.
  CHECK(text.find("T: f32[S_, N]") != std::string::npos);
  const int rows = 7, cols = 300;
  Tensors t = {{"T", random_values(rows * cols, 3)}, {"Y", std::vector<double>(rows, 0)}};
  run_instance(text, sample_bindings(text)[0], t, {{"S_", rows}, {"N", cols}, {"W", 0.5}});
  for (int r = 0; r < rows; ++r) {
    double s = 0;
    for (int c = 0; c < cols; ++c) s += t.at("T")[size_t(r * cols + c)];
    CHECK(t.at("Y")[size_t(r)] == doctest::Approx(s * 0.5).epsilon(1e-5));
  }
}

TEST_CASE("a batched gemm (a 3-D grid) has no raster group to tune") {
  std::string text = spec_kernel("C[b, m, n] = A[b, m, k] * B[b, k, n]", "A=bf16,B=bf16,C=f32");
  CHECK(tunable_names(text) == std::set<std::string>{"BM", "BN", "BK", "S", "T"});
  CHECK(text.find("raster") == std::string::npos);
  std::string plain = spec_kernel("C[m, n] = A[m, k] * B[k, n]", "A=bf16,B=bf16,C=f32");
  CHECK(tunable_names(plain).count("R") == 1);
  CHECK(plain.find("raster group R;") != std::string::npos);
  CHECK(plain.find(", raster=R") != std::string::npos);
}

}  // namespace spec_tunable_names_test
