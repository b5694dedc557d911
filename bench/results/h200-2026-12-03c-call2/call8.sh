#!/usr/bin/env bash
# Session 2026-12-03c call 2 (after run_all.sh build basebuild): is the tuned GEMM's drop at
# 8192^3 against the last session (bf16 1.538 -> 1.697 ms) the tree or the machine? The tune
# of tree 0177207 (last session's call 1) and of HEAD, interleaved A B A B, on the same shapes,
# with the SM clock and power sampled every 100 ms throughout; then cuBLAS on the same shapes.
set -u
B=build-h200/bin
BB=/tmp/build-base/bin
L=$OUT/exp.log
: > "$L"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 100 > "$OUT/smi.csv" 2>&1 &
SMI=$!
for round in 1 2; do
  for tree in base head; do
    for dt in bf16 f16; do
      for s in 8192,8192,8192 4096,8192,8192; do
        IFS=, read -r m n k <<< "$s"
        if [ $tree = base ]; then bin=$BB/tegula; src=.device/baseline/examples/gemm/gemm_tuned_$dt.tile; cache=/tmp/tc-base
        else bin=$B/tegula; src=examples/gemm/gemm_tuned_$dt.tile; cache=/tmp/tc-head; fi
        echo "== round $round $tree $dt M=$m N=$n K=$k at $(date +%T.%N | cut -c1-12)" >> "$L"
        TEGULA_CACHE_DIR=$cache timeout 60 $bin tune $src --device cuda:0 --bind M=$m,N=$n,K=$k --top 8 --repeat 50 --force 2>&1 \
          | grep -E "^ +[0-9]+ +BM|chose" >> "$L"
      done
    done
  done
done
echo "== cublas at $(date +%T.%N | cut -c1-12)" >> "$L"
python3 bench/cuda/peer_torch.py "gemmshapes:bf16,f16" 2>&1 | grep -E '"m": (8192|4096), "n": 8192, "k": 8192' >> "$L"
echo "== end at $(date +%T.%N | cut -c1-12)" >> "$L"
kill $SMI
grep -E "^==|chose|cublas" "$L"
