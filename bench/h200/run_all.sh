#!/usr/bin/env bash
# The H200 run: build (CPU backend off: the machine has no LLVM), the GPU tests of the CUDA
# and Vulkan backends, the conformance suite on cuda:0 and the NVIDIA Vulkan device, and
# the benchmarks beside cuBLAS. Steps are named on the command line, in order:
#
#   bash bench/h200/run_all.sh build tests conformance vkbench cudabench cachebench sanitizer
#
# (ncu: a profile of one benchmark group, NCU_BENCH=norm NCU_KERNELS="name ...", into ncu.log.)
#
# (cachebench: compile-cache hits on cuda:0, bench/cache/cache_hit_bench.cpp, JSON lines in
# run.log; nvrtcstart: NVRTC's first-compile cost, bench/cuda/nvrtc_start.cpp.)
# (vkgemm: the Vulkan gemm benchmark alone, without the cuBLAS peer.)
# (normbench: the norms alone beside PyTorch, into $OUT/norm.)
# (attnbench: FlashAttention beside SDPA's cuDNN and flash backends, into $OUT/attention.)
# (mamba2bench: Mamba-2's chunked scan beside PyTorch's ssd_minimal (and mamba_ssm's Triton
# kernel where installed), into $OUT/mamba2.)
#
# Side by side with an earlier tree (the figures a change must not make worse): export a
# commit with `git archive --prefix=baseline/ COMMIT | tar -x -C .device`, carry
# `.device/baseline` too, and add the steps `basebuild` (builds it into /tmp/build-base) and
# `basebench` (its CUDA and Vulkan benchmarks, run from its own tree, in the same call):
#
#   bash bench/h200/run_all.sh build basebuild tests conformance cudabench basebench vkbench
#
# On the workplace's device machine (the `run` tool) carry `.device/vulkan/debs` (Debian's
# libvulkan1 and the glvnd libraries the NVIDIA ICD loads, plus libvulkan-dev, doctest-dev,
# libsodium23 and libsodium-dev, which that machine lacks); results go under $OUT. The build lives in
# build-h200/ (git-ignored), so a second call on a still-warm machine reuses it.
set -u
ROOT=$(realpath "$(dirname "$0")/../..")
cd "$ROOT"
OUT=${OUT:-/tmp/tegula-h200}
DEBS=${DEBS:-$ROOT/.device/vulkan/debs}
BUILD=$ROOT/build-h200
BASE=${BASE:-$ROOT/.device/baseline}
BASE_BUILD=/tmp/build-base
mkdir -p "$OUT"
start=$(date +%s)
stamp() { echo "[$1 at $(( $(date +%s) - start )) s]"; }

if [ -d "$DEBS" ]; then
  for f in "$DEBS"/*.deb; do case "$f" in */libsodium*) dpkg -x "$f" /;; *-dev_*) ;; *) dpkg -x "$f" /;; esac; done
  ldconfig
  mkdir -p /tmp/dev && for f in "$DEBS"/libvulkan-dev_*.deb "$DEBS"/doctest-dev_*.deb; do dpkg -x "$f" /tmp/dev; done
fi
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$ICD" ] || ICD=$(ls /usr/share/vulkan/icd.d/nvidia*.json /etc/vulkan/icd.d/nvidia*.json 2>/dev/null | head -1)
export VK_DRIVER_FILES=$ICD VK_ICD_FILENAMES=$ICD TEGULA_VULKAN_TEST_ICD=$ICD TEGULA_CACHE_DIR=/tmp/tegula-cache
exec > >(tee -a "$OUT/run.log") 2>&1  # at most 8 files come back: one log for everything small
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader

for step in "$@"; do
  case "$step" in
    build)
      extra=()
      [ -d /tmp/dev/usr/include ] && extra+=(-DTEGULA_VULKAN_INCLUDE_DIR=/tmp/dev/usr/include -Ddoctest_DIR=/tmp/dev/usr/lib/cmake/doctest)
      cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTEGULA_ENABLE_CPU=OFF "${extra[@]}" > /tmp/build.log 2>&1 \
        || { tail -30 /tmp/build.log; exit 1; }
      cmake --build "$BUILD" -j16 --target tegula tegula-conformance tegula_plugin_cuda tegula_plugin_vulkan tegula_plugin_reference tegula_plugin_null \
        cuda_tests vulkan_tests vulkan_gemm_bench tegula_bench_cuda tegula_bench_cache >> /tmp/build.log 2>&1 \
        || { grep -E "error|FAILED" /tmp/build.log | head -30; exit 1; }
      "$BUILD/bin/tegula" devices ;;
    basebuild)
      extra=()
      [ -d /tmp/dev/usr/include ] && extra+=(-DTEGULA_VULKAN_INCLUDE_DIR=/tmp/dev/usr/include -Ddoctest_DIR=/tmp/dev/usr/lib/cmake/doctest)
      cmake -S "$BASE" -B "$BASE_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTEGULA_ENABLE_CPU=OFF -DTEGULA_BUILD_TESTS=OFF "${extra[@]}" \
        > /tmp/build-base.log 2>&1 || { tail -30 /tmp/build-base.log; exit 1; }
      cmake --build "$BASE_BUILD" -j16 --target tegula tegula_plugin_cuda tegula_plugin_vulkan tegula_plugin_reference \
        vulkan_gemm_bench tegula_bench_cuda >> /tmp/build-base.log 2>&1 || { grep -E "error|FAILED" /tmp/build-base.log | head -30; exit 1; }
      echo "baseline: $(cat "$BASE/.commit" 2>/dev/null || echo "$BASE")" ;;
    basebench)  # the baseline's CUDA benchmark (JSON lines tagged "tree":"baseline") and its Vulkan gemm
      (cd "$BASE" && TEGULA_CACHE_DIR=/tmp/tegula-cache-base timeout 200 "$BASE_BUILD/bin/tegula_bench_cuda" all) \
        | sed 's/^{/{"tree":"baseline",/' | tee "$OUT/base-bench-tegula.jsonl"
      (cd "$BASE" && TEGULA_CACHE_DIR=/tmp/tegula-cache-base timeout 150 "$BASE_BUILD/bin/vulkan_gemm_bench" 4096 20) | sed 's/^/baseline: /' ;;
    tests)
      (cd "$BUILD" && timeout 240 ctest -R 'cuda_tests|vulkan_tests' -j4 --timeout 200 --output-on-failure) > "$OUT/tests.log" 2>&1
      grep -E "tests passed|tests failed|\(Failed\)|Timeout" "$OUT/tests.log" | tail -12 ;;
    conformance)  # PERF=1: with the performance section (--perf; PERF_FILTER="globs" for --perf-filter)
      rm -rf /tmp/conformance
      perf=(); limit=330
      [ "${PERF:-0}" = 1 ] && perf=(--perf) && limit=${CONFORMANCE_LIMIT:-520}
      [ -n "${PERF_FILTER:-}" ] && perf=(--perf-filter "$PERF_FILTER") && limit=${CONFORMANCE_LIMIT:-520}
      timeout "$limit" "$BUILD/bin/tegula" conformance --device cuda --device vulkan --jobs 16 --no-offline --quiet \
        "${perf[@]}" --out /tmp/conformance > /tmp/conformance.txt 2>&1
      echo "conformance rc=$?"
      tail -3 /tmp/conformance.txt
      "$BUILD/bin/tegula" conformance verify /tmp/conformance
      python3 - /tmp/conformance/report.json <<'PY' || true
import json, sys
for d in json.load(open(sys.argv[1]))["devices"]:
    for f in d.get("performance", {}).get("figures", []):
        m = f.get("method", {})
        print("perf %s %s: %s %s (%s%% of %s; spread %s%%, compile %s ms)%s" % (d["name"], f["name"], f.get("value"), f.get("unit"),
              f.get("percent"), f.get("peak"), m.get("spread_pct"), m.get("compile_ms"),
              "  not measured: " + f["not_measured"] if "not_measured" in f else ""))
PY
      tar -czf "$OUT/conformance-h200.tar.gz" -C /tmp conformance ;;
    perf)  # the performance section alone (one fill case per device for the run's verdict), with
           # a progress line per figure in perf.log; PERF_FILTER narrows the figures
      rm -rf /tmp/conformance-perf
      pf=(--perf); [ -n "${PERF_FILTER:-}" ] && pf=(--perf-filter "$PERF_FILTER")
      timeout "${PERF_LIMIT:-420}" "$BUILD/bin/tegula" conformance --device "${PERF_DEVICES:-cuda,vulkan}" --filter 'tegula.fill.global.f32.lattice' \
        --no-offline "${pf[@]}" --out /tmp/conformance-perf > "$OUT/perf.log" 2>&1
      echo "perf rc=$?"
      tail -2 "$OUT/perf.log"
      "$BUILD/bin/tegula" conformance verify /tmp/conformance-perf | tail -3
      tar -czf "$OUT/conformance-perf-h200.tar.gz" -C /tmp conformance-perf ;;
    vkbench)
      timeout 150 "$BUILD/bin/vulkan_gemm_bench" 4096 20
      timeout 60 python3 bench/vulkan/torch_gemm.py 4096 50 ;;
    vkgemm)  # tegula's side only (TEGULA_BENCH_VARIANTS picks block tiles)
      timeout 150 "$BUILD/bin/vulkan_gemm_bench" 4096 20 ;;
    sanitizer)
      : > "$OUT/sanitizer.log"
      for tool in memcheck racecheck; do
        echo "=== $tool: gemm kernels (gpu_pipelines)" >> "$OUT/sanitizer.log"
        timeout 170 compute-sanitizer --tool $tool --error-exitcode 9 "$BUILD/bin/cuda_tests" --source-file='*gpu_pipelines*' --no-intro \
          >> "$OUT/sanitizer.log" 2>&1; echo "$tool gemm rc=$?" | tee -a "$OUT/sanitizer.log"
        echo "=== $tool: copy, fill, map and reduction kernels (gpu_tile_ops)" >> "$OUT/sanitizer.log"
        timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 "$BUILD/bin/cuda_tests" --source-file='*gpu_tile_ops*' --no-intro \
          >> "$OUT/sanitizer.log" 2>&1; echo "$tool copy rc=$?" | tee -a "$OUT/sanitizer.log"
      done
      grep -E "ERROR SUMMARY" "$OUT/sanitizer.log" | sort | uniq -c ;;
    cudabench)  # every tegula_bench_cuda subset (gemm, fp8, softmax, norm, int4, runtime) and its peers
      timeout 260 bash bench/cuda/run.sh "$BUILD" "$OUT" ;;
    normbench)  # RMSNorm, LayerNorm and the residual LayerNorm beside PyTorch (eager and torch.compile), into $OUT/norm
      mkdir -p "$OUT/norm" && timeout 200 bash bench/cuda/run.sh "$BUILD" "$OUT/norm" norm ;;
    attnbench)  # attention alone beside SDPA (cuDNN and flash backends), into $OUT/attention
      mkdir -p "$OUT/attention" && timeout 200 bash bench/cuda/run.sh "$BUILD" "$OUT/attention" attention ;;
    tunebench)  # issue 18: examples/gemm/gemm_tuned_<dt>.tile tuned per shape (tegula tune) beside cuBLAS, into tune.log
      bash bench/h200/tune_shapes.sh "$BUILD" "$OUT" "${TUNE_DTYPES:-bf16}" ;;
    mamba2bench)  # examples/mamba2 (three-kernel chain and fused) beside ssd_minimal in PyTorch, into $OUT/mamba2
      mkdir -p "$OUT/mamba2" && timeout 200 bash bench/cuda/run.sh "$BUILD" "$OUT/mamba2" mamba2 ;;
    ncu)  # profile one benchmark group (NCU_BENCH: gemm, fp8, softmax, norm, int4, attention): the 11th launch of each kernel named in NCU_KERNELS
      : > "$OUT/ncu.log"
      for k in ${NCU_KERNELS:-tg_rmsnorm_h200 tg_layernorm_h200}; do
        timeout 120 ncu --kernel-name "$k" --launch-skip 10 --launch-count 1 --section SpeedOfLight --section Occupancy \
          --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats \
          "$BUILD/bin/tegula_bench_cuda" "${NCU_BENCH:-norm}" >> "$OUT/ncu.log" 2>&1
        echo "ncu $k rc=$?"
      done
      grep -E "^  [a-z_0-9]+.*\(|Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued" "$OUT/ncu.log" | head -80 ;;
    cachebench)  # a compile-cache hit on cuda:0: median of 50 hits per example kernel
      timeout 200 "$BUILD/bin/tegula_bench_cache" --device cuda:0 --reps 50 ;;
    nvrtcstart)  # NVRTC's first compile in a process, and what a warm-up compile absorbs (bench/cuda/nvrtc_start.cpp)
      g++ -O2 -o /tmp/nvrtc_start bench/cuda/nvrtc_start.cpp -ldl -pthread || exit 1
      for mode in plain warm thread plain warm thread plain warm thread; do
        LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} timeout 60 /tmp/nvrtc_start $mode sm_90a 400
      done ;;
  esac
  stamp "$step"
done
