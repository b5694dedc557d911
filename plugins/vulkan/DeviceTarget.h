/// \file
/// A Vulkan device's own target description (schema tegula.target.v1), built from what the
/// device reports: subgroup width, workgroup and shared-memory limits, the dtypes its
/// features allow, and a matrix-instruction catalogue of its cooperative-matrix shapes
/// (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR) plus the fma fallback. Plain data
/// in, JSON out, so tests can describe devices they do not have.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tegula::vulkan {

/// One VkCooperativeMatrixPropertiesKHR entry.
struct CoopmatProps {
  uint32_t m = 0, n = 0, k = 0;
  uint32_t a = 0, b = 0, c = 0, result = 0;  ///< VkComponentTypeKHR values
  bool saturating = false;
  uint32_t scope = 0;  ///< VkScopeKHR (3 = subgroup)
};

/// One VkCooperativeMatrixFlexibleDimensionsPropertiesNV entry (VK_NV_cooperative_matrix2):
/// workgroup-scope matrices whose M, N and K are any multiple of the granularities up to
/// the device's maximum dimension, for a workgroup of exactly `invocations`.
struct FlexibleCoopmatProps {
  uint32_t m_step = 0, n_step = 0, k_step = 0;
  uint32_t a = 0, b = 0, c = 0, result = 0;
  bool saturating = false;
  uint32_t scope = 0;  ///< VkScopeKHR (2 = workgroup)
  uint32_t invocations = 0;
};

/// What the plugin learned about a physical device.
struct DeviceCaps {
  std::string name;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t api_version = 0;
  uint32_t driver_version = 0;
  uint32_t device_type = 0;  ///< VkPhysicalDeviceType
  uint64_t memory_bytes = 0;
  /// Streaming multiprocessors (VK_NV_shader_sm_builtins) or active compute units
  /// (VK_AMD_shader_core_properties, ..._properties2); 0 where the driver reports neither.
  uint32_t compute_units = 0;
  uint32_t subgroup_size = 1;
  bool subgroup_shuffle = false;    ///< shuffle and arithmetic in compute shaders
  uint32_t max_workgroup_invocations = 128;
  uint32_t max_workgroup_size_x = 128;
  uint32_t max_shared_memory = 16384;
  uint32_t max_push_constants = 128;
  bool storage8 = false, int8 = false;
  bool storage16 = false, int16 = false;
  bool float64 = false, int64 = false;
  bool float16 = false;  ///< shaderFloat16: f16 arithmetic types (cooperative matrices of f16)
  bool vulkan_memory_model = false;  ///< required by cooperative-matrix shaders
  bool atomic_float32_add = false, atomic_float64_add = false, int64_atomics = false;
  bool subgroup_size_control = false;
  uint32_t min_subgroup_size = 0, max_subgroup_size = 0;
  /// VK_KHR_shader_float_controls: the float widths whose subnormals a shader may ask the
  /// driver to keep (DenormPreserve), and whether widths can be set independently
  /// (VkShaderFloatControlsIndependence: 0 = 32-bit only, 1 = all, 2 = none).
  bool denorm_preserve16 = false, denorm_preserve32 = false, denorm_preserve64 = false;
  uint32_t denorm_independence = 2;
  /// ... and whose signed zeros, infinities and NaNs it may ask to be kept exactly (no
  /// rewriting of `x >= y ? x : y` into a max that loses -0, for instance).
  bool signed_zero_preserve16 = false, signed_zero_preserve32 = false, signed_zero_preserve64 = false;
  bool timestamps = false;
  float timestamp_period = 0;
  std::vector<CoopmatProps> coopmat;
  /// VK_NV_cooperative_matrix2 with workgroup scope and flexible dimensions; empty otherwise.
  std::vector<FlexibleCoopmatProps> coopmat_flexible;
  uint32_t coopmat_flexible_max = 0;        ///< cooperativeMatrixFlexibleDimensionsMaxDimension
  uint32_t coopmat_workgroup_max_size = 0;  ///< cooperativeMatrixWorkgroupScopeMaxWorkgroupSize
  uint32_t coopmat_workgroup_reserved_shared = 0;
  bool coopmat_tensor_addressing = false;
};

/// A Vulkan version number (VK_MAKE_API_VERSION encoding) as "major.minor.patch".
std::string version_text(uint32_t version);

/// "vulkan_" and the device name in [a-z0-9_].
std::string device_target_name(const DeviceCaps& caps);

/// The description as JSON text (it always parses and validates).
std::string device_target_json(const DeviceCaps& caps);

}  // namespace tegula::vulkan
