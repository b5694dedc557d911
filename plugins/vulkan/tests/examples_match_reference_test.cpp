// Every example kernel, at edge shapes (single elements, sizes that are not multiples of the
// tiles), runs on the Vulkan device and matches the reference interpreter (and, through
// examples::check_outputs' tolerances, its direct computation).
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace examples_match_reference_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

struct Case {
  const char* file;
  const char* bindings;
  DType out;
  double ulps;
};

const Case kCases[] = {
    {"gemm/gemm_bf16.tile", "M=1,N=1,K=1", DType::BF16, 1},
    {"gemm/gemm_bf16.tile", "M=131,N=257,K=67", DType::BF16, 1},
    {"gemm/gemm_f16.tile", "M=97,N=8,K=101", DType::F16, 1},
    {"gemm/gemm_f16.tile", "M=128,N=128,K=32", DType::F16, 1},
    {"softmax/softmax_rows.tile", "M=1,N=1", DType::F16, 1},
    {"softmax/softmax_rows.tile", "M=13,N=1031", DType::F16, 1},
    {"reduce/row_sum.tile", "M=1,N=1", DType::F32, 64},
    {"reduce/row_sum.tile", "M=17,N=1537", DType::F32, 64},
    {"elementwise/silu_mul.tile", "N=1", DType::BF16, 1},
    {"elementwise/silu_mul.tile", "N=4099", DType::BF16, 1},
    {"elementwise/silu_mul_parallel.tile", "N=7", DType::BF16, 1},
    {"elementwise/silu_mul_parallel.tile", "N=2048", DType::BF16, 1},
    {"norm/rmsnorm.tile", "M=1,N=1", DType::F16, 1},
    {"norm/rmsnorm.tile", "M=7,N=1031", DType::F16, 1},
    {"norm/layernorm.tile", "M=9,N=1031", DType::F16, 1},
    {"norm/rmsnorm_residual.tile", "M=6,N=1536", DType::F16, 1},
    {"norm/layernorm_residual.tile", "M=5,N=1031", DType::F16, 1},
};

}  // namespace

TEST_CASE("examples on the Vulkan device match the reference interpreter") {
  TG_REQUIRE_VULKAN_DEVICE();
  for (const Case& c : kCases) {
    CAPTURE(c.file);
    CAPTURE(c.bindings);
    RunSpec spec;
    spec.text = example_text(c.file);
    spec.bindings = c.bindings;
    spec.seed = 7;
    spec.direct = true;
    // Sums in f32 on the device against float64 in the reference: a few units of the f32
    // sum for f32 outputs, one unit of the output's last place for narrow ones.
    spec.tol = ulp_tolerance(c.out, c.ulps, 1e-6);
    CHECK_MESSAGE(run_compare(spec) == "", c.file);
  }
}

}  // namespace examples_match_reference_test
