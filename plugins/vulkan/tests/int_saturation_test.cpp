// i32 arithmetic on element values saturates as the IR's store to i32 does (the reference
// computes in float64): sums, differences and products past the range, and -x, |x| of
// -2^31, in maps over fragments and in parallel-loop stores; in range they are exact.
#include <cstdint>
#include <cstring>
#include <limits>

#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace int_saturation_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min(), kMax = std::numeric_limits<int32_t>::max();
const int32_t kSpecial[] = {0, 1, -1, 2, -2, 46341, -46341, 65536, -65536, 1 << 30, -(1 << 30), kMax, kMax - 1, kMin, kMin + 1, 12345};

/// Every pair of special values: X[i] = special[i % 16], Y[i] = special[i / 16 % 16].
void fill_pairs(examples::LaunchData& data, int n) {
  for (int i = 0; i < n; ++i) {
    int32_t x = kSpecial[i % 16], y = kSpecial[(i / 16) % 16];
    std::memcpy(data.tensors[0].bytes.data() + 4 * i, &x, 4);
    std::memcpy(data.tensors[1].bytes.data() + 4 * i, &y, 4);
  }
}

}  // namespace

TEST_CASE("i32 maps saturate sums, differences, products, negation and abs") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel s(X: i32[N], Y: i32[N], A: i32[N], S: i32[N], P: i32[N], G: i32[N], B: i32[N]) grid(ceildiv(N, 64)) threads(64) {\n"
      "  alloc x: fragment i32[64]\n  alloc y: fragment i32[64]\n  alloc z: fragment i32[64]\n"
      "  copy X[bx * 64], x\n  copy Y[bx * 64], y\n"
      "  map z = x + y\n  copy z, A[bx * 64]\n"
      "  map z = x - y\n  copy z, S[bx * 64]\n"
      "  map z = x * y\n  copy z, P[bx * 64]\n"
      "  map z = -x\n  copy z, G[bx * 64]\n"
      "  map z = abs(y)\n  copy z, B[bx * 64]\n}\n";
  spec.bindings = "N=256";
  spec.prepare = [](const ir::Kernel&, examples::LaunchData& data) { fill_pairs(data, 256); };
  CHECK(run_compare(spec) == "");
}

TEST_CASE("i32 element arithmetic in parallel loops saturates; index arithmetic stays exact") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel p(X: i32[N], Y: i32[N], A: i32[N], P: i32[N]) grid(ceildiv(N, 64)) threads(64) {\n"
      "  parallel i in 64 {\n    if bx * 64 + i < N {\n"
      "      store A[bx * 64 + i] = X[bx * 64 + i] - Y[bx * 64 + i] + i\n"
      "      store P[bx * 64 + i] = X[bx * 64 + i] * Y[bx * 64 + i]\n    }\n  }\n}\n";
  spec.bindings = "N=256";
  spec.prepare = [](const ir::Kernel&, examples::LaunchData& data) { fill_pairs(data, 256); };
  CHECK(run_compare(spec) == "");
}

}  // namespace int_saturation_test
