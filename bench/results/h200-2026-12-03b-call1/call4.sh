#!/usr/bin/env bash
# Session 2026-12-03b call 1 experiments (after run_all.sh build): does a tunable kernel on
# vulkan:0 run a shape-specialised variant, and is it as fast as the static-shape file?
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
for b in BM=128,BN=256,BK=32,S=4,T=256 BM=128,BN=128,BK=32,S=4,T=128; do
  echo "== symbolic, debug log, $b" >> "$L"
  TEGULA_LOADER_DEBUG=1 timeout 60 $B/tegula run examples/gemm/gemm_tuned_f16.tile --device vulkan:0 --bind M=2048,N=2048,K=2048 \
    --tune $b --repeat 10 2>&1 | grep -E "variant|per launch|PASS|FAIL|error|kernel" | head -12 >> "$L"
  echo "== static $b" >> "$L"
  timeout 60 $B/tegula run /tmp/static_f16.tile --device vulkan:0 --tune $b --repeat 10 2>&1 | grep -E "per launch|PASS|FAIL|error" >> "$L"
done
cat "$L"
