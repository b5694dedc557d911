#!/usr/bin/env bash
# Session 2026-12-04 call 3 (after run_all.sh build): on vulkan:0 the tune at 4096^3 chose
# 0.89 ms in call 2 (R=8 for all eight measured) where call 3 of 2026-12-03c chose 0.45 ms
# (R=1). Same tile (BM=128 BN=256 BK=64 T=256), S in [2, 4, 8], R in [1, 8]: every
# combination measured, 100 launches each, two rounds; then the hand-picked vkgemm variants.
set -u
B=build-h200/bin
L=$OUT/exp.log
: > "$L"
export TEGULA_CACHE_DIR=/tmp/tegula-cache-c13
sed -e 's/tune(BM in \[16, 32, 64, 128, 256\], BN in \[64, 128, 256\], BK in \[32, 64\], S in \[2, 3, 4, 5, 6, 8\], T in \[128, 256\], R in \[1, 8\])/tune(BM in [128], BN in [256], BK in [64], S in [2, 4, 8], T in [256], R in [1, 8])/' \
  examples/gemm/gemm_tuned_f16.tile > /tmp/vk_ab.tile
grep -c "S in \[2, 4, 8\]" /tmp/vk_ab.tile >> "$L"
for round in 1 2; do
  echo "== round $round $(date +%T)" >> "$L"
  timeout 120 $B/tegula tune /tmp/vk_ab.tile --device vulkan:0 --bind M=4096,N=4096,K=4096 --top 6 --repeat 100 --force 2>&1 \
    | grep -E "^ +[0-9] |chose|error" >> "$L"
done
echo "== vkgemm $(date +%T)" >> "$L"
timeout 150 $B/vulkan_gemm_bench 4096 20 >> "$L" 2>&1
echo "vkgemm rc=$?" >> "$L"
cat "$L"
