// Maps with element indices (idx) on the Vulkan device match the reference interpreter on
// random inputs: a causal mask over a gemm accumulator (the motivating case), maps over
// fragments and shared tiles of rank 1 to 3, and edge shapes (one element, primes, tails).
#include <cstdint>
#include <string>

#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace element_index_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("a causal mask over a gemm accumulator matches the reference") {
  TG_REQUIRE_VULKAN_DEVICE();
  for (const char* shape : {"M=1,N=1,K=1", "M=67,N=41,K=19", "M=64,N=96,K=48"}) {
    CAPTURE(shape);
    RunSpec spec;
    spec.text =
        "kernel causal(A: f16[M, K], B: f16[K, N], C: f32[M, N]) grid(ceildiv(N, 32), ceildiv(M, 32)) threads(64) {\n"
        "  alloc As: shared f16[32, 16]\n  alloc Bs: shared f16[16, 32]\n  alloc Acc: fragment f32[32, 32]\n"
        "  fill Acc, 0.0\n"
        "  for k in 0 .. ceildiv(K, 16) {\n"
        "    copy A[by * 32, k * 16], As\n    copy B[k * 16, bx * 32], Bs\n    gemm As, Bs, Acc, accumulate=true\n  }\n"
        "  map Acc = select(bx * 32 + idx(1) > by * 32 + idx(0), -inf, Acc)\n"
        "  copy Acc, C[by * 32, bx * 32]\n}\n";
    spec.bindings = shape;
    spec.tol = ulp_tolerance(DType::F32, 64, 1e-5);
    CHECK(run_compare(spec) == "");
  }
}

TEST_CASE("maps with idx over fragments and shared tiles match the reference bit for bit") {
  TG_REQUIRE_VULKAN_DEVICE();
  const char* scopes[][2] = {{"fragment", "fragment"}, {"fragment", "shared"}, {"shared", "shared"}};
  for (const auto& sc : scopes) {
    for (const char* T : {"f32", "i32", "f16"}) {
      for (const char* shape : {"M=1,N=1", "M=29,N=31", "M=7,N=130"}) {
        CAPTURE(sc[0]);
        CAPTURE(sc[1]);
        CAPTURE(T);
        CAPTURE(shape);
        std::string t = T;
        std::string masked = t == "i32" ? "idx(0) * 3 - idx(1)" : "-inf";
        RunSpec spec;
        spec.text = "kernel m(X: " + t + "[M, N], Z: " + t +
                    "[M, N]) grid(ceildiv(N, 13), ceildiv(M, 7)) threads(32) {\n  alloc x: " + sc[0] + " " + t +
                    "[7, 13]\n  alloc z: " + sc[1] + " " + t + "[7, 13]\n  copy X[by * 7, bx * 13], x\n" +
                    "  map z = select(bx * 13 + idx(1) > by * 7 + idx(0), " + masked +
                    ", x)\n  copy z, Z[by * 7, bx * 13]\n}\n";
        spec.bindings = shape;
        CHECK(run_compare(spec) == "");
      }
    }
  }
}

TEST_CASE("a sequence tail (rank 1) and a triangular mask per batch (rank 3)") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec tail;
  tail.text =
      "kernel t(X: f32[L], Z: f32[L]) grid(ceildiv(L, 96)) threads(32) {\n  alloc x: fragment f32[96]\n  copy X[bx * "
      "96], x\n"
      "  map x = select(bx * 96 + idx(0) < L - 3, x, cast<f32>(bx * 96 + idx(0)))\n  copy x, Z[bx * 96]\n}\n";
  tail.bindings = "L=197";
  CHECK(run_compare(tail) == "");
  RunSpec tri;
  tri.text =
      "kernel tri(X: f32[B, S, S], Z: f32[B, S, S]) grid(1, 1, ceildiv(B, 2)) threads(32) {\n"
      "  alloc x: fragment f32[2, 8, 8]\n  alloc z: shared f32[2, 8, 8]\n  copy X[bz * 2, 0, 0], x\n"
      "  map z = select(idx(2) <= idx(1), x, cast<f32>(bz * 2 + idx(0)) * 0.5)\n  copy z, Z[bz * 2, 0, 0]\n}\n";
  tri.bindings = "B=5,S=7";
  CHECK(run_compare(tri) == "");
}

}  // namespace element_index_test
