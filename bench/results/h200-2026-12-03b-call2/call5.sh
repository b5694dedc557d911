#!/usr/bin/env bash
# Session 2026-12-03b call 2 (after run_all.sh build): why the shape-specialised variant of
# gemm_tuned_f16 on vulkan:0 runs 3.4x slower than the same text with static shapes (call 1:
# 0.350 vs 0.103 ms at 2048^3). Whole debug logs (pipeline statistics, lowering notes) of
# both, and per-launch time at 10 and 100 repeats (host overhead between launches).
set -u
B=build-h200/bin
L=$OUT/exp.log
: > "$L"
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$ICD" ] || ICD=$(ls /usr/share/vulkan/icd.d/nvidia*.json /etc/vulkan/icd.d/nvidia*.json 2>/dev/null | head -1)
export VK_DRIVER_FILES=$ICD VK_ICD_FILENAMES=$ICD TEGULA_CACHE_DIR=off
sed -e 's/A: f16\[M, K\], B: f16\[K, N\], C: f16\[M, N\]/A: f16[2048, 2048], B: f16[2048, 2048], C: f16[2048, 2048]/' \
    -e 's/ceildiv(N, BN), ceildiv(M, BM)/ceildiv(2048, BN), ceildiv(2048, BM)/' -e 's/ceildiv(K, BK)/ceildiv(2048, BK)/' \
    examples/gemm/gemm_tuned_f16.tile > /tmp/static_f16.tile
b=BM=128,BN=256,BK=32,S=4,T=256
for rep in 10 100; do
  echo "== symbolic repeat $rep" >> "$L"
  TEGULA_LOADER_DEBUG=1 timeout 60 $B/tegula run examples/gemm/gemm_tuned_f16.tile --device vulkan:0 --bind M=2048,N=2048,K=2048 \
    --tune $b --repeat $rep 2>&1 | grep -vE "found manifest|negotiated|searching|loading plugin|plugin '|no devices|initialised" >> "$L"
  echo "== static repeat $rep" >> "$L"
  TEGULA_LOADER_DEBUG=1 timeout 60 $B/tegula run /tmp/static_f16.tile --device vulkan:0 --tune $b --repeat $rep 2>&1 \
    | grep -vE "found manifest|negotiated|searching|loading plugin|plugin '|no devices|initialised" >> "$L"
done
timeout 30 $B/tegula lower /tmp/static_f16.tile --device vulkan:0 --tune $b > $OUT/static_lowered.txt 2>&1
grep -E "^== |per launch|statistics|PASS|FAIL|variant" "$L" | cut -c1-300
# The Vulkan tune (issue 18 bar: 30 s), now that candidates' shape variants compile in parallel.
echo "== tune f16 vulkan:0 4096^3" >> "$L"
start=$(date +%s)
export TEGULA_CACHE_DIR=/tmp/tegula-cache-tune
timeout 110 $B/tegula tune examples/gemm/gemm_tuned_f16.tile --device vulkan:0 --bind M=4096,N=4096,K=4096 --top 8 --repeat 10 --force >> "$L" 2>&1
echo "rc=$? seconds=$(( $(date +%s) - start ))" >> "$L"
sed -n '/== tune f16 vulkan/,$p' "$L" | tail -16
