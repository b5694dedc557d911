/// \file
/// Solution kernels several rows share (a row may as well carry its own).
#pragma once

namespace tegula::ir::optimizations {

/// A bf16 gemm in a three-stage pipelined loop, 128x128 tiles of C, 256 threads, constant
/// shapes (so vector widths and bounds are proven without --assume): the kernel every
/// copy-engine, shared-layout and matrix-instruction row lowers.
inline constexpr const char* kPipelinedGemm =
    R"(kernel pipelined_gemm(A: bf16[512, 512], B: bf16[512, 512], C: f32[512, 512]) grid(4, 4) threads(256) {
  alloc As: shared bf16[128, 32]
  alloc Bs: shared bf16[32, 128]
  alloc Acc: fragment f32[128, 128]
  fill Acc, 0.0
  pipelined k in 0 .. 16, stages=3 {
    copy A[by * 128, k * 32], As
    copy B[k * 32, bx * 128], Bs
    gemm As, Bs, Acc, accumulate=true
  }
  copy Acc, C[by * 128, bx * 128]
}
)";

/// A f16 gemm of 64x64 tiles, 128 threads, K walked in a plain loop: what cooperative
/// matrices take (their accumulator is only filled, multiplied into and copied out).
inline constexpr const char* kPlainGemmF16 =
    R"(kernel plain_gemm(A: f16[M, K], B: f16[K, N], C: f32[M, N]) grid(ceildiv(N, 64), ceildiv(M, 64)) threads(128) {
  alloc As: shared f16[64, 32]
  alloc Bs: shared f16[32, 64]
  alloc Acc: fragment f32[64, 64]
  fill Acc, 0.0
  for kk in 0 .. ceildiv(K, 32) {
    copy A[by * 64, kk * 32], As
    copy B[kk * 32, bx * 64], Bs
    gemm As, Bs, Acc, accumulate=true
  }
  copy Acc, C[by * 64, bx * 64]
}
)";

}  // namespace tegula::ir::optimizations

namespace tegula::ir::optimizations {

/// A small f16 gemm: 32x32 tiles of C, 64 threads (two warps, one wave), no loop. Too few
/// threads for a warpgroup instruction, so targets with wgmma or tcgen05 show their warp-level
/// instruction here.
inline constexpr const char* kSmallGemmF16 =
    R"(kernel small_gemm(A: f16[64, 64], B: f16[64, 64], C: f32[64, 64]) grid(2, 2) threads(64) {
  alloc As: shared f16[32, 64]
  alloc Bs: shared f16[64, 32]
  alloc Acc: fragment f32[32, 32]
  copy A[by * 32, 0], As
  copy B[0, bx * 32], Bs
  gemm As, Bs, Acc
  copy Acc, C[by * 32, bx * 32]
}
)";

}  // namespace tegula::ir::optimizations
