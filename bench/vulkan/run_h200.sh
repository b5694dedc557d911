#!/bin/bash
# One command on the H200 machine (the device tool's `run`): build with the CPU backend off,
# run the Vulkan tests on the NVIDIA device, then the benchmark beside cuBLAS. Expects in
# $DEBS (default .device/vulkan/debs) the Vulkan loader with the glvnd libraries the NVIDIA
# ICD (libGLX_nvidia) needs -- libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0
# libgles2, unpacked into / as the device README says -- and libvulkan-dev and doctest-dev,
# unpacked aside for the build; and, when this tree has no plugins/vulkan (the tool sent
# another checkout), the vulkan worktree as $DEBS/../src.tar.gz. Writes logs under $OUT.
# The tests fail if the NVIDIA device is not found (TEGULA_VULKAN_TEST_ICD is set).
set -u
DEBS=$(realpath "${DEBS:-.device/vulkan/debs}")
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
if [ ! -f plugins/vulkan/CMakeLists.txt ]; then
  mkdir -p /tmp/src && tar -xzf "$DEBS/../src.tar.gz" -C /tmp/src && cd /tmp/src
fi
for f in "$DEBS"/*.deb; do case "$f" in *-dev_*) ;; *) dpkg -x "$f" /;; esac; done
ldconfig
mkdir -p /tmp/dev && for f in "$DEBS"/libvulkan-dev_*.deb "$DEBS"/doctest-dev_*.deb; do dpkg -x "$f" /tmp/dev; done
ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$ICD" ] || ICD=$(ls /usr/share/vulkan/icd.d/nvidia*.json /etc/vulkan/icd.d/nvidia*.json 2>/dev/null | head -1)
export VK_DRIVER_FILES=$ICD VK_ICD_FILENAMES=$ICD TEGULA_VULKAN_TEST_ICD=$ICD
echo "icd: $ICD"; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
set -o pipefail
cmake -S . -B /tmp/build -G Ninja -DTEGULA_ENABLE_CPU=OFF -DTEGULA_ENABLE_CUDA=OFF -DTEGULA_WERROR=OFF \
  -DCMAKE_CXX_FLAGS="-include cstdint -include cstddef -include cstring -include algorithm -include functional -include limits -include memory -include string -include vector -include cmath" \
  -DTEGULA_VULKAN_INCLUDE_DIR=/tmp/dev/usr/include -Ddoctest_DIR=/tmp/dev/usr/lib/cmake/doctest \
  > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
cmake --build /tmp/build -j16 --target vulkan_tests vulkan_gemm_bench tegula_plugin_vulkan tegula_plugin_reference tegula_plugin_null tegula > "$OUT/build.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
echo "build ok"
/tmp/build/bin/tegula devices 2>&1 | tee "$OUT/devices.txt"
TEGULA_LOADER_DEBUG=1 /tmp/build/bin/tegula plugins >> "$OUT/devices.txt" 2>&1
/tmp/build/bin/tegula targets --device vulkan:0 > "$OUT/target.txt" 2>&1
(cd /tmp/build && timeout 200 ctest -R vulkan_tests --output-on-failure) 2>&1 | tee "$OUT/tests.log" | tail -25
timeout 150 /tmp/build/bin/vulkan_gemm_bench 4096 20 2>&1 | tee "$OUT/bench_vulkan.txt"
timeout 60 python3 bench/vulkan/torch_gemm.py 4096 50 2>&1 | tee "$OUT/bench_torch.txt"
