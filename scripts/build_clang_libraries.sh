#!/usr/bin/env bash
# Compile the libraries, plugins and command-line tools with clang 19 (the compiler of the
# fuzzing build) into build-clang/, warnings as errors, without tests or benchmarks: CI runs
# the tests in the gcc build, and this build only shows that clang compiles what a user or
# packager builds. Extra arguments go to CMake's configure step.
#
# It compiles at -O0 with NDEBUG (the Release build's asserts, none of its optimization):
# clang issues every warning in its front end, so the diagnostics are those of a Release
# build, at a fraction of the compile time (CI runs it after the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${TEGULA_JOBS:-$(nproc)}"
cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_C_FLAGS='-O0 -DNDEBUG' -DCMAKE_CXX_FLAGS='-O0 -DNDEBUG' -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DTEGULA_BUILD_TESTS=OFF -DTEGULA_BUILD_BENCH=OFF -DTEGULA_WERROR=ON "$@"
cmake --build build-clang -j "$jobs"
