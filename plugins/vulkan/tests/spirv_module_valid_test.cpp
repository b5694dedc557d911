// Every example kernel, lowered for a lavapipe-like and an H200-like device description,
// generates a SPIR-V module that spirv-val accepts under Vulkan 1.1 rules.
#include "plugins/vulkan/tests/CodegenTestUtil.h"

namespace spirv_module_valid_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

TEST_CASE("example kernels generate valid SPIR-V") {
  const char* files[] = {"gemm/gemm_bf16.tile",       "gemm/gemm_f16.tile",          "softmax/softmax_rows.tile",
                         "reduce/row_sum.tile",       "elementwise/silu_mul.tile",   "elementwise/silu_mul_parallel.tile"};
  for (const DeviceCaps& caps : {lavapipe_caps(), h200_caps()}) {
    TargetDescription t = describe(caps);
    for (const char* f : files) {
      CAPTURE(caps.name);
      CAPTURE(f);
      auto shader = generate_for(example_text(f), t);
      REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
      std::string verdict = spirv_val(shader->words);
      if (verdict == "skip") {
        MESSAGE("spirv-val is missing or predates this module's extensions: not validated");
        continue;
      }
      CHECK_MESSAGE(verdict.empty(), verdict);
    }
  }
}

}  // namespace spirv_module_valid_test
