#!/bin/bash
# One command on the H200 (the device tool's `run`): unpack the cuda worktree, build with the
# CPU and Vulkan backends off, run the cuda tests (GPU ones included), compute-sanitizer
# memcheck and racecheck on the gemm and copy kernels, and the benchmarks beside cuBLAS.
# Usage: bash .device/cuda/run_h200.sh [tests] [sanitizer] [bench]; logs under $OUT.
set -u
HERE=$(realpath "$(dirname "$0")")
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/src
tar -xzf "$HERE/src.tar.gz" -C /tmp/src && cd /tmp/src
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
start=$(date +%s)
cmake -S . -B /tmp/build -G Ninja -DTEGULA_ENABLE_CPU=OFF -DTEGULA_ENABLE_VULKAN=OFF -DTEGULA_WERROR=OFF -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="-include cstdint -include cstring -include algorithm" -Ddoctest_DIR="$HERE/doctest/cmake" > "$OUT/build.log" 2>&1 \
  || { tail -30 "$OUT/build.log"; exit 1; }
cmake --build /tmp/build -j16 --target cuda_tests tegula_plugin_cuda tegula_bench_cuda tegula tegula_cuda_gen >> "$OUT/build.log" 2>&1 \
  || { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
echo "build ok in $(( $(date +%s) - start )) s"
/tmp/build/bin/tegula devices 2>&1
for step in "$@"; do
  case "$step" in
    tests)
      (cd /tmp/build && timeout 300 ctest -R 'cuda_tests' -j6 --timeout 200 --output-on-failure) > "$OUT/tests.log" 2>&1
      grep -E "tests passed|Failed|Passed|\*\*\*" "$OUT/tests.log" | tail -25
      grep -E "ERROR|logged|error:" "$OUT/tests.log" | head -30 ;;
    sanitizer)
      : > "$OUT/sanitizer.log"
      for tool in memcheck racecheck; do
        echo "=== $tool: gemm kernels (gpu_pipelines)" >> "$OUT/sanitizer.log"
        timeout 170 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/build/bin/cuda_tests --source-file='*gpu_pipelines*' --no-intro \
          >> "$OUT/sanitizer.log" 2>&1; echo "$tool gemm rc=$?" | tee -a "$OUT/sanitizer.log"
        echo "=== $tool: copy, fill and reduction kernels (gpu_tile_ops)" >> "$OUT/sanitizer.log"
        timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/build/bin/cuda_tests --source-file='*gpu_tile_ops*' \
          --test-case='fills*,reductions*,maps*' --no-intro >> "$OUT/sanitizer.log" 2>&1; echo "$tool copy rc=$?" | tee -a "$OUT/sanitizer.log"
      done
      grep -E "ERROR SUMMARY|rc=" "$OUT/sanitizer.log" ;;
    sass)
      for k in gemm_bf16_h200 gemm_f16_h200; do
        /tmp/build/bin/tegula_cuda_gen bench/cuda/$k.tile sm_90a --div M=16 --div N=16 --div K=16 --raster 8 --show none --cubin /tmp/$k.cubin > /dev/null 2>&1
        echo "== $k SASS"; cuobjdump --dump-sass /tmp/$k.cubin | grep -oE "HGMMA\.[0-9A-Zx.]+|UTMALDG[.A-Z0-9]*|SYNCS[.A-Z0-9]*|HMMA[.0-9A-Z]*|LDL|STL" | sort | uniq -c
      done 2>&1 | tee "$OUT/sass.txt"
      for th in 1024 512; do
        sed "s/threads(1024)/threads($th)/" bench/cuda/softmax_row_h200.tile > /tmp/sm$th.tile
        TEGULA_CUDA_NVRTC_OPTIONS="--ptxas-options=-v" /tmp/build/bin/tegula_cuda_gen /tmp/sm$th.tile sm_90a --option min_blocks_per_sm=2 --show none 2>&1 \
          | grep -E "registers|spill" | sed "s/^/softmax threads($th): /"
      done | tee -a "$OUT/sass.txt" ;;
    bench)
      timeout 200 bash bench/cuda/run.sh /tmp/build "$OUT" > "$OUT/bench.log" 2>&1; echo "bench rc=$?"; grep -v "^$" "$OUT/bench.log" | tail -40 ;;
  esac
  echo "[$step done at $(( $(date +%s) - start )) s]"
done
