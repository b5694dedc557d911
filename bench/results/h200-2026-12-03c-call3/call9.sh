#!/usr/bin/env bash
# Session 2026-12-03c call 3 (after run_all.sh build): the Vulkan tune of gemm_tuned_f16 at
# 4096^3 with compiles side by side (TG_CONCURRENT_COMPILE) beside call 1's 29.9 s compile phase; its phase
# lines say where the time goes.
set -u
B=build-h200/bin
L=$OUT/exp.log
: > "$L"
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$ICD" ] || ICD=$(ls /usr/share/vulkan/icd.d/nvidia*.json /etc/vulkan/icd.d/nvidia*.json 2>/dev/null | head -1)
export VK_DRIVER_FILES=$ICD VK_ICD_FILENAMES=$ICD TEGULA_CACHE_DIR=/tmp/tegula-cache-tune
echo "== tune f16 vulkan:0 4096^3" >> "$L"
start=$(date +%s)
timeout 150 stdbuf -oL -eL $B/tegula tune examples/gemm/gemm_tuned_f16.tile --device vulkan:0 --bind M=4096,N=4096,K=4096 \
  --top 8 --repeat 20 --force >> "$L" 2>&1
echo "rc=$? seconds=$(( $(date +%s) - start ))" >> "$L"
cat "$L" | tail -20
