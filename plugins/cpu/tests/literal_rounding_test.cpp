// A literal that a store, map or fill writes is its exact value rounded once to the
// destination dtype, as the reference interpreter writes it: 0.1 into f64 is 0.1 (not 0.1f
// widened), 1e300 into f64 stays finite, 16777217.0 into i32 keeps its last bit.
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace literal_rounding_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const std::vector<std::string> kValues = {"0.1", "1e300", "-1e300", "16777217.0", "16777217", "2147483647.0",
                                          "1e-310", "0.30000000000000004", "3.4028235677973366e38"};

/// For value i: S<i> by element stores, M<i> by a map of a fragment copied out, F<i> by a
/// fill of the global tensor.
std::string literal_kernel(DType t) {
  std::string T = dtype_name(t);
  std::string text = "kernel literals(";
  for (size_t i = 0; i < kValues.size(); ++i) {
    std::string n = std::to_string(i);
    text += std::string(i ? ", " : "") + "S" + n + ": " + T + "[N], M" + n + ": " + T + "[N], F" + n + ": " + T + "[N]";
  }
  text += ") grid(ceildiv(N, 8)) threads(8) {\n  alloc m: fragment " + T + "[8]\n";
  for (size_t i = 0; i < kValues.size(); ++i) {
    std::string n = std::to_string(i);
    text += "  parallel i in 8 {\n    if bx * 8 + i < N {\n      store S" + n + "[bx * 8 + i] = " + kValues[i] +
            "\n    }\n  }\n";
    text += "  map m = " + kValues[i] + "\n  copy m, M" + n + "[bx * 8]\n";
    text += "  fill F" + n + "[bx * 8], " + kValues[i] + ", extent=[8]\n";
  }
  return text + "}\n";
}

}  // namespace

TEST_CASE("literals stored, mapped and filled round once to the destination dtype") {
  for (DType t : {DType::F64, DType::I32, DType::F32, DType::F16}) {
    CAPTURE(std::string(dtype_name(t)));
    std::string text = literal_kernel(t);
    for (int64_t n : {8, 11}) check_against_reference(text, {{"N", n}}, 1, Tolerance{});
  }
}

}  // namespace literal_rounding_test
