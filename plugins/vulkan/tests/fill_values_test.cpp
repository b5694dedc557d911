// Fills round their literal once, from its full double value, to the destination dtype:
// f64 keeps values f32 cannot hold (its max, its smallest subnormal, 0.1 exactly), narrow
// floats and integers round and saturate as a store does, in fragments and shared memory.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace fill_values_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("fill literals round once to the destination dtype") {
  TG_REQUIRE_VULKAN_DEVICE();
  const char* literals[] = {"1.7976931348623157e308", "4.9406564584124654e-324", "0.1", "1.0e300", "-1.0e300", "3.0000001", "-0.0", "65520.0"};
  for (std::string t : {"f64", "f32", "f16", "bf16", "e4m3", "e5m2", "i32"}) {
    if (!env().target->has_dtype(*parse_dtype(t))) continue;
    for (std::string scope : {"fragment", "shared"}) {
      for (const char* lit : literals) {
        CAPTURE(t);
        CAPTURE(scope);
        CAPTURE(lit);
        RunSpec spec;
        spec.text = "kernel f(Y: " + t + "[64]) grid(1) threads(64) {\n  alloc a: " + scope + " " + t + "[64]\n  fill a, " + lit +
                    "\n  copy a, Y[0]\n}\n";
        CHECK(run_compare(spec) == "");
      }
    }
  }
}

}  // namespace fill_values_test
