#!/usr/bin/env bash
# Configure and build tegula into build/ (Ninja, RelWithDebInfo). Extra arguments go to
# CMake's configure step, e.g. -DTEGULA_ENABLE_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${TEGULA_JOBS:-$(nproc)}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build build -j "$jobs"
