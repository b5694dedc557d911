// Every example kernel on cpu:0 at edge shapes (1, odd, prime, not multiples of the tile)
// matches the reference interpreter on the same inputs, and the example's own direct
// computation.
#include "core/Files.h"

#include <cstdint>
#include "plugins/cpu/tests/CpuTestUtil.h"

namespace examples_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

std::string example(const char* path) {
  Result<std::string> text = read_file(std::string(TEGULA_SOURCE_DIR) + "/examples/" + path);
  REQUIRE_MESSAGE(text.is_ok(), text.status().str());
  return *text;
}

void check_example(const char* path, const std::map<std::string, int64_t>& bind, Tolerance tol) {
  CAPTURE(path);
  std::string text = example(path);
  ir::Kernel k = parse(text);
  for (const auto& [name, value] : bind) CAPTURE(name + "=" + std::to_string(value));
  examples::LaunchData data = make_data(k, bind, 7);
  check_against_reference(text, data, tol);
  // And against the example's direct computation.
  Status st = run_cpu(text, k, data);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  Result<examples::CheckResult> r = examples::check_outputs(k, data);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_MESSAGE(r->passed, examples::format_check(*r));
}

}  // namespace

TEST_CASE("gemm examples at edge shapes") {
  for (const char* path : {"gemm/gemm_bf16.tile", "gemm/gemm_f16.tile"}) {
    for (auto [m, n, k] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
             {1, 1, 1}, {3, 5, 7}, {128, 128, 32}, {131, 257, 67}, {37, 300, 129}}) {
      // f32 sums in another order than the reference's float64 ones, then one rounding to
      // the output: a unit of the output plus K f32 units.
      Tolerance tol{double(k) * 1e-6, ulps(path[5] == 'b' ? DType::BF16 : DType::F16, 1.01)};
      check_example(path, {{"M", m}, {"N", n}, {"K", k}}, tol);
    }
  }
}

TEST_CASE("row examples at edge shapes") {
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {4, 7}, {5, 512}, {37, 513}, {9, 1000}, {2, 1531}}) {
    check_example("softmax/softmax_rows.tile", {{"M", m}, {"N", n}}, Tolerance{1e-6, ulps(DType::F16, 1.01)});
    check_example("reduce/row_sum.tile", {{"M", m}, {"N", n}}, Tolerance{double(n) * 2e-7, 1e-6});
  }
}

TEST_CASE("elementwise examples at edge shapes") {
  for (int64_t n : {1, 2, 1023, 1024, 2047, 2049, 5001}) {
    Tolerance tol{1e-6, ulps(DType::BF16, 1.01)};
    check_example("elementwise/silu_mul.tile", {{"N", n}}, tol);
    check_example("elementwise/silu_mul_parallel.tile", {{"N", n}}, tol);
  }
}

}  // namespace examples_test
