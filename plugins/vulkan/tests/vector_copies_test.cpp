// Global -> shared copies that move several elements per load (fixed shapes, so the lowering
// proves the vector width) keep every encoding bit for bit in every dtype, 8-byte f64 (two
// words per element) included, and fill reads past the tensor's edge with the pad value.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace vector_copies_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

/// X [rows, cols] through a 16 x 64 shared tile into Y [32, 128]: tiles past X's edge read
/// the pad value, which Y then holds.
std::string copy_kernel(const std::string& t, int rows, int cols) {
  std::string x = "[" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
  return "kernel v(X: " + t + x + ", Y: " + t + "[32, 128]) grid(2, 2) threads(128) {\n"
         "  alloc s: shared " + t + "[16, 64]\n"
         "  copy X[by * 16, bx * 64], s, pad=" + (t == "bool" ? "1" : "3") + "\n"
         "  copy s, Y[by * 16, bx * 64]\n}\n";
}

}  // namespace

TEST_CASE("vectorised global to shared copies keep every dtype's bits, f64 included") {
  TG_REQUIRE_VULKAN_DEVICE();
  for (std::string t : {"f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2", "i8", "u8", "i32", "bool"}) {
    if (!env().target->has_dtype(*parse_dtype(t))) continue;
    for (auto [rows, cols] : {std::pair{32, 128}, std::pair{20, 96}}) {
      CAPTURE(t);
      CAPTURE(cols);
      RunSpec spec;
      spec.text = copy_kernel(t, rows, cols);
      CHECK(run_compare(spec) == "");
    }
  }
}

}  // namespace vector_copies_test
