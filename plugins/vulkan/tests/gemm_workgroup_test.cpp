// Gemms shaped for workgroup matrices match the reference on the device: plain, with an
// epilogue map over the accumulator and a scalar, with transposed operands, at shapes that
// leave partial tiles, into f16 and f32. Where the device has VK_NV_cooperative_matrix2 (the
// H200 run) they use workgroup matrices; elsewhere (lavapipe) the same kernels take the
// subgroup or fma path, and must match all the same.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace gemm_workgroup_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

std::string gemm(bool ta, bool tb, const std::string& out, const std::string& epilogue) {
  std::string a_shape = ta ? "[K, M]" : "[M, K]", b_shape = tb ? "[N, K]" : "[K, N]";
  std::string as = ta ? "[32, 64]" : "[64, 32]", bs = tb ? "[128, 32]" : "[32, 128]";
  std::string aoff = ta ? "[k * 32, by * 64]" : "[by * 64, k * 32]", boff = tb ? "[bx * 128, k * 32]" : "[k * 32, bx * 128]";
  return "kernel g(A: f16" + a_shape + ", B: f16" + b_shape + ", C: " + out + "[M, N], alpha: f32) grid(ceildiv(N, 128), ceildiv(M, 64)) "
         "threads(128) {\n  alloc As: shared f16" + as + "\n  alloc Bs: shared f16" + bs + "\n  alloc Acc: fragment f32[64, 128]\n"
         "  fill Acc, 0.0\n  pipelined k in 0 .. ceildiv(K, 32), stages=2 {\n    copy A" + aoff + ", As\n    copy B" + boff + ", Bs\n"
         "    gemm As, Bs, Acc, accumulate=true" + (ta ? ", trans_a=true" : "") + (tb ? ", trans_b=true" : "") + "\n  }\n" + epilogue +
         "  copy Acc, C[by * 64, bx * 128]\n}\n";
}

}  // namespace

TEST_CASE("gemms shaped for workgroup matrices match the reference") {
  TG_REQUIRE_VULKAN_DEVICE();
  if (!env().target->has_dtype(DType::F16)) return;
  struct Case {
    bool ta, tb;
    const char* out;
    const char* epilogue;
    const char* bindings;
  };
  const Case cases[] = {
      {false, false, "f32", "", "M=128,N=256,K=96"},
      {false, false, "f16", "", "M=70,N=131,K=45"},
      {false, false, "f32", "  map Acc = -(Acc * alpha) + 0.5 - Acc * Acc\n", "M=70,N=131,K=45"},
      {false, true, "f32", "", "M=70,N=131,K=45"},
      {true, false, "f16", "  map Acc = Acc * alpha\n", "M=64,N=128,K=64"},
      {true, true, "f32", "", "M=1,N=1,K=1"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.ta);
    CAPTURE(c.tb);
    CAPTURE(c.out);
    CAPTURE(c.epilogue);
    CAPTURE(c.bindings);
    RunSpec spec;
    spec.text = gemm(c.ta, c.tb, c.out, c.epilogue);
    spec.bindings = c.bindings;
    // f32 sums of f16 products in another order (the matrix units'), then rounded once.
    spec.tol = ulp_tolerance(*parse_dtype(c.out), std::string(c.out) == "f32" ? 256 : 1, 1e-4);
    CHECK(run_compare(spec) == "");
  }
}

TEST_CASE("a device that offers workgroup matrices compiles these gemms onto them") {
  TG_REQUIRE_VULKAN_DEVICE();
  bool offers = false;
  for (const MatrixInstruction& mi : env().target->matrix_instructions) offers = offers || mi.scope == GroupScope::Cta;
  if (!offers) {
    MESSAGE("this device offers no workgroup matrices; the comparisons above ran other paths");
    return;
  }
  // Without this, the comparisons above could pass on the H200 through another path.
  for (bool tb : {false, true}) {
    CAPTURE(tb);
    auto kernel = env().dev->compile(gemm(false, tb, "f32", "  map Acc = Acc * alpha\n"));
    REQUIRE_MESSAGE(kernel.is_ok(), kernel.status().str());
    auto text = kernel->describe();  // the variant for aligned tensors, compiled up front
    REQUIRE_MESSAGE(text.is_ok(), text.status().str());
    CHECK(text->find("OpCooperativeMatrixLoadTensorNV") != std::string::npos);
  }
}

}  // namespace gemm_workgroup_test
