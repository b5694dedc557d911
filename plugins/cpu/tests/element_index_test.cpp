// Maps with element indices (idx) on cpu:0 match the reference interpreter on random
// inputs: a causal mask over a gemm accumulator (the motivating case), maps over fragments
// and shared tiles of rank 1 to 3, and edge shapes (one element, primes, tails).
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace element_index_test {

using namespace tegula;
using namespace tegula::cpu::testing;

TEST_CASE("a causal mask over a gemm accumulator matches the reference") {
  const std::string text =
      "kernel causal(A: bf16[M, K], B: bf16[K, N], C: f32[M, N]) grid(ceildiv(N, 32), ceildiv(M, 32)) threads(64) {\n"
      "  alloc As: shared bf16[32, 16]\n  alloc Bs: shared bf16[16, 32]\n  alloc Acc: fragment f32[32, 32]\n"
      "  fill Acc, 0.0\n"
      "  for k in 0 .. ceildiv(K, 16) {\n"
      "    copy A[by * 32, k * 16], As\n    copy B[k * 16, bx * 32], Bs\n    gemm As, Bs, Acc, accumulate=true\n  }\n"
      "  map Acc = select(bx * 32 + idx(1) > by * 32 + idx(0), -inf, Acc)\n"
      "  copy Acc, C[by * 32, bx * 32]\n}\n";
  struct Shape {
    int64_t m, n, k;
  };
  for (Shape s : {Shape{1, 1, 1}, Shape{67, 41, 19}, Shape{64, 96, 48}, Shape{31, 97, 5}}) {
    CAPTURE(s.m);
    CAPTURE(s.n);
    check_against_reference(text, {{"M", s.m}, {"N", s.n}, {"K", s.k}}, uint64_t(s.m * 7 + s.n),
                            Tolerance{double(s.k) * 2.5e-7 + 1e-6, ulps(DType::F32, 8.08)});
  }
}

TEST_CASE("maps with idx over fragments and shared tiles match the reference bit for bit") {
  const char* scopes[][2] = {{"fragment", "fragment"}, {"fragment", "shared"}, {"shared", "shared"}};
  for (const auto& sc : scopes) {
    for (DType d : {DType::F32, DType::F16, DType::I32, DType::U8}) {
      CAPTURE(sc[0]);
      CAPTURE(sc[1]);
      CAPTURE(dtype_name(d));
      std::string T = dtype_name(d);
      std::string masked = dtype_is_int(d) ? "idx(0) * 3 - idx(1)" : "-inf";
      std::string text = subst(
          "kernel m(X: {T}[M, N], Z: {T}[M, N]) grid(ceildiv(N, 13), ceildiv(M, 7)) threads(32) {\n"
          "  alloc x: {SX} {T}[7, 13]\n  alloc z: {SZ} {T}[7, 13]\n  copy X[by * 7, bx * 13], x\n"
          "  map z = select(bx * 13 + idx(1) > by * 7 + idx(0), {MASKED}, x)\n  copy z, Z[by * 7, bx * 13]\n}\n",
          {{"T", T}, {"SX", sc[0]}, {"SZ", sc[1]}, {"MASKED", masked}});
      for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {29, 31}, {7, 130}})
        check_against_reference(text, {{"M", m}, {"N", n}}, uint64_t(m + n), Tolerance{});
    }
  }
}

TEST_CASE("a sequence tail (rank 1) and a triangular mask per batch (rank 3)") {
  check_against_reference(
      "kernel t(X: f32[L], Z: f32[L]) grid(ceildiv(L, 96)) threads(32) {\n  alloc x: fragment f32[96]\n  copy X[bx * "
      "96], x\n"
      "  map x = select(bx * 96 + idx(0) < L - 3, x, cast<f32>(bx * 96 + idx(0)))\n  copy x, Z[bx * 96]\n}\n",
      {{"L", 197}}, 3, Tolerance{});
  check_against_reference(
      "kernel tri(X: f32[B, S, S], Z: f32[B, S, S]) grid(1, 1, ceildiv(B, 2)) threads(32) {\n"
      "  alloc x: fragment f32[2, 8, 8]\n  alloc z: shared f32[2, 8, 8]\n  copy X[bz * 2, 0, 0], x\n"
      "  map z = select(idx(2) <= idx(1), x, cast<f32>(bz * 2 + idx(0)) * 0.5)\n  copy z, Z[bz * 2, 0, 0]\n}\n",
      {{"B", 5}, {"S", 7}}, 4, Tolerance{});
}

}  // namespace element_index_test
