#!/usr/bin/env bash
# Session 2026-12-04 call 4 (after run_all.sh build tests tunebench): what limits the tuned
# GEMM at the decode shape 16x8192x8192 bf16 (0.815x cuBLAS in call 2): ncu SpeedOfLight,
# memory and occupancy of the ranking's first beside cuBLAS's kernel, one launch each.
set -u
B=build-h200/bin
L=$OUT/exp.log
: > "$L"
export TEGULA_CACHE_DIR=/tmp/tegula-cache-c14
CUBLAS='import torch
a=(torch.rand(16,8192,device="cuda")*2-1).bfloat16(); b=(torch.rand(8192,8192,device="cuda")*2-1).bfloat16()
for _ in range(8): torch.matmul(a,b)
torch.cuda.synchronize()'
echo "== ncu ours" >> "$L"
timeout 100 ncu --kernel-name regex:gemm_tuned --launch-skip 20 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
  --section Occupancy --section LaunchStats $B/tegula tune examples/gemm/gemm_tuned_bf16.tile --device cuda:0 --bind M=16,N=8192,K=8192 \
  --top 1 --repeat 30 --force > "$OUT/ncu.log" 2>&1
echo "ncu rc=$?" >> "$L"
echo "== ncu cublas" >> "$L"
timeout 100 ncu --kernel-name regex:'nvjet|sm90|gemm|cutlass|splitK|reduce' --launch-skip 3 --launch-count 2 --section SpeedOfLight \
  --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats python3 -c "$CUBLAS" >> "$OUT/ncu.log" 2>&1
echo "ncu rc=$?" >> "$L"
grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|SM Frequency|DRAM Throughput|Compute \(SM\) Throughput|Memory Throughput|L2 Hit Rate|Grid Size|Block Size|Registers Per|Achieved Occupancy|Waves Per SM" "$OUT/ncu.log" >> "$L"
cat "$L"
