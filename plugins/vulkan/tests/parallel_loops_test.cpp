// Parallel loops run each iteration once (threads the plan replicates stay idle) with local
// buffers, if/else, nested serial loops and stores to shared memory read back after a
// barrier; out-of-range loads and stores inside them are guarded.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("parallel loops with locals, branches and serial loops match the reference") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel p(X: f32[N], Y: f32[N], Z: i32[N]) grid(ceildiv(N, 100)) threads(64) {\n"
      "  alloc s: shared f32[100]\n"
      "  parallel i in 100 {\n    alloc t: local f32[3]\n"
      "    if bx * 100 + i < N {\n      store t[0] = X[bx * 100 + i]\n      store t[1] = 0.0\n"
      "      for j in 0 .. 3 {\n        store t[1] = t[1] + t[0] * cast<f32>(j)\n      }\n"
      "      store s[i] = t[1]\n    } else {\n      store s[i] = -1.0\n    }\n  }\n"
      "  barrier\n"
      "  parallel (i, j) in (10, 10) {\n    if bx * 100 + i * 10 + j < N {\n"
      "      store Y[bx * 100 + i * 10 + j] = s[(i * 10 + j + 1) % 100] + s[i * 10 + j]\n"
      "      store Z[bx * 100 + i * 10 + j] = select(s[i * 10 + j] > 0.0, i - j, (i + 3) / 4)\n    }\n  }\n}\n";
  spec.bindings = "N=257";
  spec.tol = {1e-6, 1e-6};
  CHECK(run_compare(spec) == "");
}

TEST_CASE("scalars of every kind reach the kernel") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel s(Y: f32[N], a: f32, b: f16, c: i32, d: u8, e: bool) grid(1) threads(32) {\n"
      "  parallel i in 32 {\n    if i < N {\n"
      "      store Y[i] = select(e, a * cast<f32>(i) + b, cast<f32>(c - d))\n    }\n  }\n}\n";
  spec.bindings = "N=30,a=3,c=-7,d=200,e=1";
  CHECK(run_compare(spec) == "");
}
