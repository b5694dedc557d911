#!/usr/bin/env bash
# Configure and build tegula into build/ with Ninja. TEGULA_BUILD_TYPE picks the build type
# (default RelWithDebInfo; CI uses Release), TEGULA_WERROR=ON makes warnings errors (CI and
# developers; off by default so another compiler's new warning does not break a user's
# build). Extra arguments go to CMake's configure step, e.g. -DTEGULA_ENABLE_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${TEGULA_JOBS:-$(nproc)}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${TEGULA_BUILD_TYPE:-RelWithDebInfo}" \
  -DTEGULA_WERROR="${TEGULA_WERROR:-OFF}" "$@"
cmake --build build -j "$jobs"
