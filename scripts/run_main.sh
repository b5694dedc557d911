#!/usr/bin/env bash
# One command for a new machine: install dependencies, build, run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
./scripts/main_job.sh
