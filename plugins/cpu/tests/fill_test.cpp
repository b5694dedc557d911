// fill writes its value, rounded to the dtype, to every element of the tile and nothing
// outside a global tensor; for every dtype and values that round, saturate or are special.
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace fill_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const std::vector<std::string> kValues = {"0.0", "-0.0", "1", "-7", "2.5", "3.5", "0.1", "1e-40", "1000.7", "70000.0",
                                          "-1e300", "inf", "-inf", "nan", "257", "-129"};

/// Output Y<i> gets value i through a fragment, Z<i> by a fill of the global tensor.
std::string fill_kernel(DType t) {
  std::string T = dtype_name(t);
  std::string text = "kernel fill_values(";
  for (size_t i = 0; i < kValues.size(); ++i)
    text += std::string(i ? ", " : "") + "Y" + std::to_string(i) + ": " + T + "[M, N], Z" + std::to_string(i) + ": " + T + "[M, N]";
  text += ") grid(ceildiv(N, 8), ceildiv(M, 4)) threads(32) {\n  alloc t: fragment " + T + "[4, 8]\n";
  for (size_t i = 0; i < kValues.size(); ++i) {
    std::string n = std::to_string(i);
    text += "  fill t, " + kValues[i] + "\n  copy t, Y" + n + "[by * 4, bx * 8]\n";
    text += "  fill Z" + n + "[by * 4, bx * 8], " + kValues[i] + ", extent=[4, 8]\n";
  }
  return text + "}\n";
}

}  // namespace

TEST_CASE("fill every dtype with values that round, saturate or are special") {
  for (DType t : all_dtypes()) {
    CAPTURE(std::string(dtype_name(t)));
    std::string text = fill_kernel(t);
    for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{7, 13}, {1, 1}, {4, 8}})
      check_against_reference(text, {{"M", m}, {"N", n}}, 1, Tolerance{});
  }
}

TEST_CASE("fill with an expression of the block index") {
  const char* text = R"(
kernel fill_index(Y: i32[M, N], Z: f32[M, N]) grid(ceildiv(N, 8), ceildiv(M, 4)) threads(32) {
  fill Y[by * 4, bx * 8], bx * 100 + by, extent=[4, 8]
  fill Z[by * 4, bx * 8], cast<f32>(by) / 3.0, extent=[4, 8]
}
)";
  check_against_reference(text, {{"M", 9}, {"N", 17}}, 1, Tolerance{});
}

}  // namespace fill_test
