#!/usr/bin/env bash
# The auto-scheduling benchmark (issue 18): for each GEMM shape of bench/cuda/peer_torch.py's
# GEMM_SHAPES and each dtype, `tegula tune` ranks examples/gemm/gemm_tuned_<dt>.tile's
# candidates from the device's description, checks and times the top ones on cuda:0 and
# records the fastest; its table (predicted, measured, the ranking's first against the best)
# goes to $OUT/tune.log, and torch.matmul (cuBLAS) runs the same shapes in the same call.
#   bash bench/h200/tune_shapes.sh BUILD OUT "bf16 f16"
# Both sides are timed alike (TUNE_REPEAT launches back to back after 50 ms of untimed ones):
# the H200 reaches its power cap within 100 ms of load, so a shorter or gappier burst reads faster.
BUILD=$1
OUT=$2
DTYPES=${3:-bf16}
TOP=${TUNE_TOP:-6}
REPEAT=${TUNE_REPEAT:-10}  # launches timed per candidate, and per cuBLAS shape, alike
LOG=$OUT/tune.log
: > "$LOG"
shapes="4096,4096,4096 8192,8192,8192 4096,1024,8192 4096,8192,8192 4096,28672,8192 4096,8192,28672 8192,1024,8192
8192,28672,8192 8192,8192,28672 8192,8192,16384 1000,1000,999 256,8192,8192 16,8192,8192"
for dt in $DTYPES; do
  for s in $shapes; do
    IFS=, read -r m n k <<< "$s"
    echo "== tune $dt M=$m N=$n K=$k" >> "$LOG"
    start=$(date +%s%N)
    timeout 120 "$BUILD/bin/tegula" tune "examples/gemm/gemm_tuned_$dt.tile" --device cuda:0 --bind "M=$m,N=$n,K=$k" \
      --top "$TOP" --repeat "$REPEAT" --force >> "$LOG" 2>&1
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "rc=$rc seconds=$(( ms / 1000 )).$(printf %03d $(( ms % 1000 )))" >> "$LOG"
  done
  # The clock and temperature after each dtype's tunes: the figures of one dtype against the
  # other's are only comparable when these match.
  echo "gpu after $dt: $(nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader)" >> "$LOG"
done
python3 bench/cuda/peer_torch.py "gemmshapes:$(echo $DTYPES | tr ' ' ','):$REPEAT" >> "$LOG" 2>&1
grep -E "^== |chose|cublas|rc=|^gpu after" "$LOG" | grep -v "^\s*$" | head -120
# The same file on the NVIDIA Vulkan device (f16: its cooperative matrices), beside the
# hand-picked Vulkan variants of vulkan_gemm_bench (the vkgemm step).
if [ "${TUNE_VULKAN:-0}" = 1 ]; then
  echo "== tune f16 vulkan:0 M=4096 N=4096 K=4096" >> "$LOG"
  timeout 150 "$BUILD/bin/tegula" tune examples/gemm/gemm_tuned_f16.tile --device vulkan:0 --bind M=4096,N=4096,K=4096 \
    --top "$TOP" --repeat 10 --force >> "$LOG" 2>&1
  echo "rc=$?" >> "$LOG"
  grep -A12 "vulkan:0" "$LOG" | head -20
fi
