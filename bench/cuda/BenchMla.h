/// \file
/// tegula_bench_cuda's `mla` subset (bench/cuda/BenchMla.cpp), apart from bench_cuda.cpp because
/// it runs through the public runtime (which specialises each launch on its shapes' divisibility)
/// rather than the plugin table.
#pragma once

namespace tegula::bench {

/// MLA decode at batch 64, 128 heads, L = 4096: the KV cache's bytes read per second by the
/// one-pass kernel and the flash-decoding pairs (split + combine, dense and paged) at several
/// split counts, against a device-to-device copy of the cache; float64 spot check of O.
void bench_mla();

}  // namespace tegula::bench
