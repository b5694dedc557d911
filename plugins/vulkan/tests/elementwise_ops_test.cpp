// Elementwise arithmetic in parallel loops and maps matches the reference: integer floor
// division and modulo (negative operands included), ceildiv, comparisons and select,
// maxNum/minNum with NaN operands (a NaN loses to a number), and the transcendental
// functions within a few f32 units in the last place.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace elementwise_ops_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("integer division, modulo and ceildiv floor like the reference") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel d(X: i32[N], Y: i32[N], Q: i32[N], R: i32[N], C: i32[N]) grid(ceildiv(N, 32)) threads(32) {\n"
      "  parallel i in 32 {\n    if bx * 32 + i < N {\n"
      "      store Q[bx * 32 + i] = X[bx * 32 + i] / Y[bx * 32 + i]\n"
      "      store R[bx * 32 + i] = X[bx * 32 + i] % Y[bx * 32 + i]\n"
      "      store C[bx * 32 + i] = ceildiv(X[bx * 32 + i], Y[bx * 32 + i])\n    }\n  }\n}\n";
  spec.bindings = "N=200";
  spec.prepare = [](const ir::Kernel&, examples::LaunchData& data) {
    for (int i = 0; i < 200; ++i) {
      int32_t x = i * 7 - 700, y = (i % 11) - 5;
      if (y == 0) y = 3;
      std::memcpy(data.tensors[0].bytes.data() + 4 * i, &x, 4);
      std::memcpy(data.tensors[1].bytes.data() + 4 * i, &y, 4);
    }
  };
  CHECK(run_compare(spec) == "");
}

TEST_CASE("max and min are maxNum and minNum; comparisons and select") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel m(X: f32[N], Y: f32[N], A: f32[N], B: f32[N], S: f32[N], L: bool[N]) grid(ceildiv(N, 64)) threads(64) {\n"
      "  parallel i in 64 {\n    if bx * 64 + i < N {\n"
      "      store A[bx * 64 + i] = max(X[bx * 64 + i], Y[bx * 64 + i])\n"
      "      store B[bx * 64 + i] = min(X[bx * 64 + i], Y[bx * 64 + i])\n"
      "      store S[bx * 64 + i] = select(X[bx * 64 + i] < Y[bx * 64 + i], X[bx * 64 + i] - Y[bx * 64 + i], -abs(Y[bx * 64 + i]))\n"
      "      store L[bx * 64 + i] = X[bx * 64 + i] >= Y[bx * 64 + i] || X[bx * 64 + i] == 0.5\n    }\n  }\n}\n";
  spec.bindings = "N=100";
  spec.prepare = [](const ir::Kernel&, examples::LaunchData& data) {
    const float special[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 0.5f, 1.0f};
    for (int i = 0; i < 64; ++i) {
      float x = special[i % 8], y = special[(i / 8) % 8];
      std::memcpy(data.tensors[0].bytes.data() + 4 * i, &x, 4);
      std::memcpy(data.tensors[1].bytes.data() + 4 * i, &y, 4);
    }
  };
  CHECK(run_compare(spec) == "");
}

TEST_CASE("transcendental functions and division agree within a few ulps") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel t(X: f32[N], E: f32[N], L: f32[N], T: f32[N], Q: f32[N], R: f32[N], D: f32[N], P: f32[N]) grid(ceildiv(N, 64)) "
      "threads(64) {\n"
      "  alloc x: fragment f32[64]\n  alloc y: fragment f32[64]\n"
      "  copy X[bx * 64], x\n"
      "  map y = exp(x * 4.0)\n  copy y, E[bx * 64]\n"
      "  map y = log(abs(x) + 0.001)\n  copy y, L[bx * 64]\n"
      "  map y = tanh(x * 8.0)\n  copy y, T[bx * 64]\n"
      "  map y = sqrt(abs(x))\n  copy y, Q[bx * 64]\n"
      "  map y = rsqrt(abs(x) + 0.01)\n  copy y, R[bx * 64]\n"
      "  map y = x / (x * x + 0.25)\n  copy y, D[bx * 64]\n"
      "  map y = exp2(x * 3.0) - 1.0\n  copy y, P[bx * 64]\n}\n";
  spec.bindings = "N=1000";
  spec.tol = {.abs = 1e-6, .rel = 4e-6};
  CHECK(run_compare(spec) == "");
}

TEST_CASE("maps broadcast size-1 operands and scalars convert to the compute dtype") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel b(X: f16[M, 48], R: f32[M], Y: bf16[M, 48], s: f32, k: i32) grid(ceildiv(M, 8)) threads(64) {\n"
      "  alloc x: fragment f32[8, 48]\n  alloc r: fragment f32[8, 1]\n"
      "  copy X[bx * 8, 0], x\n  reduce x, r, op=sum, axis=1\n"
      "  map x = (x - r) * s + cast<f32>(k)\n  copy x, Y[bx * 8, 0]\n}\n";
  spec.bindings = "M=21,s=3,k=-2";
  spec.tol = ulp_tolerance(DType::BF16, 1, 1e-5);
  CHECK(run_compare(spec) == "");
}

}  // namespace elementwise_ops_test
