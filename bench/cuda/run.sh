#!/usr/bin/env bash
# Build tegula with the cuda plugin and measure it beside its peers on the first CUDA device.
# Usage: bench/cuda/run.sh [BUILD_DIR] [OUT_DIR] [SUBSET]   (run from the repository root;
# SUBSET as tegula_bench_cuda takes it, default all)
# Writes OUT_DIR/bench-tegula.jsonl and OUT_DIR/bench-peer.jsonl and prints both.
set -euo pipefail
build=${1:-build}
out=${2:-.}
subset=${3:-all}
"$build/bin/tegula_bench_cuda" "$subset" | tee "$out/bench-tegula.jsonl"
python3 bench/cuda/peer_torch.py "$subset" | tee "$out/bench-peer.jsonl"
