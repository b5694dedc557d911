/// \file
/// What two devices report, as DeviceCaps: lavapipe (Mesa's CPU device, CI) and an H200
/// through the NVIDIA driver. Tests and the offline generator (tools/vulkan_gen) lower and
/// generate for them without the device.
#pragma once

#include <array>
#include <cstdint>

#include "plugins/vulkan/DeviceTarget.h"

namespace tegula::vulkan {

/// Mesa 22.3 lavapipe as vulkaninfo reports it here.
inline DeviceCaps lavapipe_caps() {
  DeviceCaps c;
  c.name = "llvmpipe (LLVM 15.0.6, 256 bits)";
  c.vendor_id = 0x10005;
  c.api_version = (1u << 22) | (3u << 12) | 230;
  c.subgroup_size = 8;
  c.subgroup_shuffle = true;
  c.max_workgroup_invocations = 1024;
  c.max_workgroup_size_x = 1024;
  c.max_shared_memory = 32768;
  c.max_push_constants = 128;
  c.storage8 = c.int8 = c.storage16 = c.int16 = c.float64 = c.int64 = c.float16 = true;
  c.atomic_float32_add = true;
  c.int64_atomics = true;
  return c;
}

/// An H200 through the NVIDIA driver (shared/research/mma.md section 5).
inline DeviceCaps h200_caps() {
  DeviceCaps c;
  c.name = "NVIDIA H200";
  c.vendor_id = 0x10DE;
  c.api_version = (1u << 22) | (4u << 12) | 312;
  c.subgroup_size = 32;
  c.subgroup_shuffle = true;
  c.max_workgroup_invocations = 1024;
  c.max_workgroup_size_x = 1024;
  c.max_shared_memory = 49152;
  c.compute_units = 132;  // VK_NV_shader_sm_builtins' shaderSMCount
  c.max_push_constants = 256;
  c.storage8 = c.int8 = c.storage16 = c.int16 = c.float64 = c.int64 = c.float16 = true;
  c.atomic_float32_add = true;
  c.atomic_float64_add = true;
  c.int64_atomics = true;
  c.subgroup_size_control = true;
  c.vulkan_memory_model = true;
  c.min_subgroup_size = c.max_subgroup_size = 32;
  auto add = [&](uint32_t m, uint32_t n, uint32_t k, uint32_t a, uint32_t acc) { c.coopmat.push_back({m, n, k, a, a, acc, acc, false, 3}); };
  for (uint32_t acc : {0u, 1u}) {
    add(16, 16, 16, 0, acc);
    add(16, 8, 16, 0, acc);
    add(16, 8, 8, 0, acc);
  }
  add(16, 16, 32, 7, 9);
  add(16, 8, 32, 7, 9);
  add(16, 16, 32, 3, 5);
  add(16, 8, 32, 3, 5);
  add(16, 16, 16, 1000141000, 1);
  // VK_NV_cooperative_matrix2, as driver 580.159.04 reports it (bench/results/vulkan-h200-2026-11-30.md):
  // workgroup scope for 32, 64, 128 and 256 invocations, sizes up to 1024, 8 KiB of shared
  // memory kept by the driver. (The subgroup-scope flexible entries are not used.)
  c.coopmat_tensor_addressing = true;
  c.coopmat_flexible_max = 1024;
  c.coopmat_workgroup_max_size = 256;
  c.coopmat_workgroup_reserved_shared = 8192;
  auto flex = [&](uint32_t m, uint32_t n, uint32_t k, uint32_t a, uint32_t acc, uint32_t inv) {
    c.coopmat_flexible.push_back({m, n, k, a, a, acc, acc, false, 2, inv});
  };
  for (auto [m, n, inv] : {std::array<uint32_t, 3>{16, 16, 32}, {16, 16, 64}, {32, 16, 128}, {32, 32, 256}}) {
    for (uint32_t acc : {0u, 1u}) flex(m, n, 16, 0, acc, inv);
    flex(m, n, 32, 7, 9, inv);
    flex(m, n, 32, 3, 5, inv);
    flex(m, n, 16, 1000141000, 1, inv);
  }
  return c;
}

}  // namespace tegula::vulkan
