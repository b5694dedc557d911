#!/usr/bin/env bash
# Session 2026-12-03 call 2 experiments (after run_all.sh build tests):
# (1) Vulkan: gemm_tuned_f16 with M, N, K fixed at 2048 (4096^3 takes a minute to check on the host) (static shapes, as vulkan_gemm_bench
#     compiles) against the symbolic file, same bindings, to test whether symbolic shapes
#     cost the 4-10x seen in call 1.
# (2) M = 16 bf16: a wider space (BN = 32, S up to 8) and ncu of the chosen binding.
set -u
B=build-h200/bin
L=$OUT/exp.log
: > "$L"
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$ICD" ] || ICD=$(ls /usr/share/vulkan/icd.d/nvidia*.json /etc/vulkan/icd.d/nvidia*.json 2>/dev/null | head -1)
export VK_DRIVER_FILES=$ICD VK_ICD_FILENAMES=$ICD TEGULA_CACHE_DIR=/tmp/tegula-cache-exp
sed -e 's/A: f16\[M, K\], B: f16\[K, N\], C: f16\[M, N\]/A: f16[2048, 2048], B: f16[2048, 2048], C: f16[2048, 2048]/' \
    -e 's/ceildiv(N, BN), ceildiv(M, BM)/ceildiv(2048, BN), ceildiv(2048, BM)/' -e 's/ceildiv(K, BK)/ceildiv(2048, BK)/' \
    examples/gemm/gemm_tuned_f16.tile > /tmp/static_f16.tile
for tile in /tmp/static_f16.tile examples/gemm/gemm_tuned_f16.tile; do
  for b in BM=128,BN=256,BK=64,S=4,T=256 BM=128,BN=256,BK=32,S=4,T=256 BM=128,BN=128,BK=32,S=4,T=128; do
    echo "== vulkan $tile $b" >> "$L"
    bind=""; [ "$tile" = /tmp/static_f16.tile ] || bind="--bind M=2048,N=2048,K=2048"
    timeout 60 $B/tegula run $tile --device vulkan:0 $bind --tune $b --repeat 10 2>&1 | grep -E "per launch|PASS|FAIL|error" >> "$L"
  done
done
sed -e 's/BN in \[64, 128, 256\]/BN in [32, 64, 128, 256]/' -e 's/S in \[2, 3, 4, 5\]/S in [2, 3, 4, 5, 6, 8]/' \
    examples/gemm/gemm_tuned_bf16.tile > /tmp/wide_bf16.tile
echo "== tune wide bf16 M=16" >> "$L"
timeout 100 $B/tegula tune /tmp/wide_bf16.tile --device cuda:0 --bind M=16,N=8192,K=8192 --top 16 --repeat 10 --force >> "$L" 2>&1
echo "== ncu M=16 BM=32 BN=64 BK=64 S=5 T=256" >> "$L"
timeout 120 ncu --target-processes all --kernel-name regex:gemm_tuned --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy \
  --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats \
  $B/tegula run examples/gemm/gemm_tuned_bf16.tile --device cuda:0 --bind M=16,N=8192,K=8192 --tune BM=32,BN=64,BK=64,S=5,T=256 --repeat 5 >> "$L" 2>&1
cat "$L" | grep -vE "^\s*$" | head -150
