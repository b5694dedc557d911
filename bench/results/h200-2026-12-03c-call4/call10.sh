#!/usr/bin/env bash
# Session 2026-12-03c call 4 (after run_all.sh build): what limits the tuned GEMM against cuBLAS
# when both are timed sustained (call 3: 0.88x at 4096x28672x8192 bf16). Each runs 1000
# launches back to back (about 3 s) with the SM clock and power sampled every 100 ms; then ncu
# times one launch of each at ncu's locked clocks (SpeedOfLight), where the power cap is out
# of the picture.
set -u
B=build-h200/bin
L=$OUT/exp.log
: > "$L"
export TEGULA_CACHE_DIR=/tmp/tegula-cache-c10
ts() { date +%T.%N | cut -c1-12; }
CUBLAS='import torch,sys
m,n,k,reps=4096,28672,8192,int(sys.argv[1])
a=(torch.rand(m,k,device="cuda")*2-1).bfloat16(); b=(torch.rand(k,n,device="cuda")*2-1).bfloat16()
for _ in range(3): torch.matmul(a,b)
torch.cuda.synchronize()
s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True)
s.record()
for _ in range(reps): torch.matmul(a,b)
e.record(); e.synchronize()
print("cublas sustained: %.4f ms per launch over %d" % (s.elapsed_time(e)/reps, reps))'
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 100 > "$OUT/smi.csv" 2>&1 &
SMI=$!
sleep 1
echo "== ours sustained from $(ts)" >> "$L"
timeout 90 $B/tegula tune examples/gemm/gemm_tuned_bf16.tile --device cuda:0 --bind M=4096,N=28672,K=8192 --top 1 --repeat 1000 --force 2>&1 \
  | grep -E "^ +1 |chose" >> "$L"
echo "== ours done at $(ts)" >> "$L"
sleep 3
echo "== cublas sustained from $(ts)" >> "$L"
timeout 90 python3 -c "$CUBLAS" 1000 >> "$L" 2>&1
echo "== cublas done at $(ts)" >> "$L"
sleep 1
kill $SMI
echo "== ncu ours" >> "$L"
timeout 120 ncu --kernel-name regex:gemm_tuned --launch-skip 20 --launch-count 1 --section SpeedOfLight \
  $B/tegula tune examples/gemm/gemm_tuned_bf16.tile --device cuda:0 --bind M=4096,N=28672,K=8192 --top 1 --repeat 30 --force > "$OUT/ncu.log" 2>&1
echo "ncu rc=$?" >> "$L"
echo "== ncu cublas" >> "$L"
timeout 120 ncu --kernel-name regex:'nvjet|sm90|gemm|cutlass' --launch-skip 3 --launch-count 1 --section SpeedOfLight \
  python3 -c "$CUBLAS" 5 >> "$OUT/ncu.log" 2>&1
echo "ncu rc=$?" >> "$L"
grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|SM Frequency|DRAM Throughput|Compute \(SM\) Throughput|Memory Throughput" "$OUT/ncu.log" >> "$L"
cat "$L"
