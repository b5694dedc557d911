#!/usr/bin/env bash
# Installs what tegula's build and tests need from Debian's packages. Idempotent: packages
# already present are skipped, so running it twice is safe and quick.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3  # python3: the size check (scripts/check_sizes.py)
  llvm-19-dev libclang-rt-19-dev clang-19   # CPU backend (ORC JIT) and libFuzzer
  liblld-19-dev                              # hip backend: lld links AMDGPU code objects in process
  libvulkan-dev mesa-vulkan-drivers spirv-tools  # Vulkan backend; lavapipe is the CPU Vulkan device
  libsodium-dev                              # Ed25519 signatures of conformance report bundles
  doctest-dev                                # tests
  libamdhip64-dev                            # HIP headers
  libopenblas-dev                            # the peer in the CPU gemm benchmark
  chromium                                   # headless: the conformance report page's browser test
  zlib1g-dev libzstd-dev libedit-dev libcurl4-openssl-dev libxml2-dev  # what llvm-19-dev's CMake package expects
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
