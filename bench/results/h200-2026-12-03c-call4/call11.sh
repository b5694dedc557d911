#!/usr/bin/env bash
# Session 2026-12-03c call 5 (after run_all.sh build): does rasterised block order (raster=8,
# groups of 8 block rows) cut the tuned GEMM's DRAM traffic enough to matter under the power
# cap? gemm_tuned_bf16 at 4096x28672x8192, the ranking's first binding, 500 launches back to
# back, without and with raster=8, interleaved A B A B.
set -u
B=build-h200/bin
L=$OUT/exp.log
: > "$L"
export TEGULA_CACHE_DIR=/tmp/tegula-cache-c11
for round in 1 2; do
  for f in examples/gemm/gemm_tuned_bf16.tile .device/exp/gemm_tuned_bf16_raster8.tile; do
    echo "== round $round $f" >> "$L"
    timeout 60 $B/tegula tune $f --device cuda:0 --bind M=4096,N=28672,K=8192 --top 1 --repeat 500 --force 2>&1 | grep -E "^ +1 " >> "$L"
  done
done
cat "$L"
