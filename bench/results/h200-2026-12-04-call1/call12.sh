#!/usr/bin/env bash
# Session 2026-12-04 call 1 (after run_all.sh build): does rasterised block order (raster=8,
# groups of 8 block rows) cut the tuned GEMM's DRAM traffic and close the gap to cuBLAS under
# the power cap? The ranking's first binding of gemm_tuned_{bf16,f16} at three shapes, 500
# launches back to back, without and with raster=8, interleaved A B A B, then cuBLAS sustained
# at the same shapes, then ncu (DRAM and SM throughput) of both orders at 4096x28672x8192.
set -u
B=build-h200/bin
L=$OUT/exp.log
: > "$L"
export TEGULA_CACHE_DIR=/tmp/tegula-cache-c12
sed 's/reference=matmul {/reference=matmul, raster=8 {/' examples/gemm/gemm_tuned_f16.tile > /tmp/gemm_tuned_f16_raster8.tile
R8BF=.device/exp/gemm_tuned_bf16_raster8.tile
R8F=/tmp/gemm_tuned_f16_raster8.tile
grep -c raster=8 $R8BF $R8F >> "$L"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 100 > "$OUT/smi.csv" 2>&1 &
SMI=$!
tune1() {  # file shape
  echo "== $(date +%T) $1 $2" >> "$L"
  timeout 60 $B/tegula tune "$1" --device cuda:0 --bind "$2" --top 1 --repeat 500 --force 2>&1 | grep -E "^ +1 |error" >> "$L"
}
for shape in M=4096,N=28672,K=8192 M=8192,N=8192,K=8192; do
  for round in 1 2; do
    tune1 examples/gemm/gemm_tuned_bf16.tile $shape
    tune1 $R8BF $shape
  done
done
for round in 1 2; do
  tune1 examples/gemm/gemm_tuned_f16.tile M=8192,N=28672,K=8192
  tune1 $R8F M=8192,N=28672,K=8192
done
CUBLAS='import torch,sys
m,n,k,reps=[int(x) for x in sys.argv[1:5]]
dt=getattr(torch,sys.argv[5])
a=(torch.rand(m,k,device="cuda")*2-1).to(dt); b=(torch.rand(k,n,device="cuda")*2-1).to(dt)
for _ in range(3): torch.matmul(a,b)
torch.cuda.synchronize()
s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True)
s.record()
for _ in range(reps): torch.matmul(a,b)
e.record(); e.synchronize()
print("cublas %s %dx%dx%d sustained: %.4f ms per launch over %d" % (sys.argv[5],m,n,k,s.elapsed_time(e)/reps, reps))'
echo "== $(date +%T) cublas" >> "$L"
timeout 60 python3 -c "$CUBLAS" 4096 28672 8192 500 bfloat16 >> "$L" 2>&1
timeout 60 python3 -c "$CUBLAS" 8192 8192 8192 500 bfloat16 >> "$L" 2>&1
timeout 60 python3 -c "$CUBLAS" 8192 28672 8192 500 float16 >> "$L" 2>&1
kill $SMI
for f in examples/gemm/gemm_tuned_bf16.tile $R8BF; do
  echo "== ncu $f" >> "$L"
  timeout 100 ncu --kernel-name regex:gemm_tuned --launch-skip 20 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    $B/tegula tune $f --device cuda:0 --bind M=4096,N=28672,K=8192 --top 1 --repeat 30 --force > /tmp/ncu.log 2>&1
  echo "ncu rc=$?" >> "$L"
  cat /tmp/ncu.log >> "$OUT/ncu.log"
  grep -E "Duration|SM Frequency|DRAM Throughput|Compute \(SM\) Throughput|Memory Throughput|L2 Hit Rate|Mem Busy" /tmp/ncu.log >> "$L"
done
cat "$L"
