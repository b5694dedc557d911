/// \file
/// tegula_bench_cuda's `mamba2` subset (bench/cuda/BenchMamba2.cpp): Mamba-2's chunked scan
/// (examples/mamba2) through the public runtime, as BenchMla.cpp runs MLA decode.
#pragma once

namespace tegula::bench {

/// The SSD scan at batch 4, sequence 4096, 32 heads of dim 64, state 128, one group of B and C,
/// chunks of 64 (bf16 X, B, C; f32 log-decays and states): the three-kernel chain (chunk
/// states, state passing, chunk scan) and the fused kernel, in TFLOP/s of the chunked
/// algorithm's gemms and GB/s of the bytes it must move (X, A, B, C read, Y written);
/// float64 spot check of Y against the sequential recurrence.
void bench_mamba2();

}  // namespace tegula::bench
