#!/usr/bin/env bash
# One command for a new machine: install dependencies, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
ctest --test-dir build --output-on-failure -j "${TEGULA_JOBS:-$(nproc)}"
