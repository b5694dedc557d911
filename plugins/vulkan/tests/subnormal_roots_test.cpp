// sqrt, rsqrt and division keep subnormal inputs and results (and the huge divisors whose
// reciprocal is subnormal) exactly as the reference does, on whatever device runs the tests:
// lavapipe in CI, the H200's driver (which flushes them in its own Sqrt and FDiv) on the GPU.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace subnormal_roots_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("sqrt, rsqrt and division of subnormals and near the range ends") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel r(X: f32[N], Y: f32[N], S: f32[N], R: f32[N], D: f32[N]) grid(ceildiv(N, 64)) threads(64) {\n"
      "  parallel i in 64 {\n    if bx * 64 + i < N {\n"
      "      store S[bx * 64 + i] = sqrt(X[bx * 64 + i])\n"
      "      store R[bx * 64 + i] = rsqrt(X[bx * 64 + i])\n"
      "      store D[bx * 64 + i] = X[bx * 64 + i] / Y[bx * 64 + i]\n    }\n  }\n}\n";
  const float xs[] = {0x1p-149f, 0x1p-140f, 0x1.8p-130f, 0x1p-126f, 0x1.fffffcp-127f, 0.0f, -0.0f, 1.0f, 0x1p100f, 3.0e38f, -0x1p-140f};
  const float ys[] = {0x1p28f, 0x1p126f, 3.0e38f, 0x1p-130f, 0.5f, 3.0f, -7.0f, INFINITY};
  const int nx = int(sizeof xs / sizeof xs[0]), ny = int(sizeof ys / sizeof ys[0]);
  spec.bindings = "N=" + std::to_string(nx * ny);
  spec.prepare = [&](const ir::Kernel&, examples::LaunchData& data) {
    for (int i = 0; i < nx * ny; ++i) {
      float x = xs[i % nx], y = ys[i / nx];
      std::memcpy(data.tensors[0].bytes.data() + 4 * i, &x, 4);
      std::memcpy(data.tensors[1].bytes.data() + 4 * i, &y, 4);
    }
  };
  // sqrt and the quotient round correctly; 1/sqrt is within 2 ulp of the reference.
  spec.tol = {.abs = 0, .rel = 2.5e-7};
  CHECK(run_compare(spec) == "");
}

}  // namespace subnormal_roots_test
