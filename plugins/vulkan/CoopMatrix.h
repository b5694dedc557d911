/// \file
/// VK_KHR_cooperative_matrix (extension 507, revision 2), declared here because the Vulkan
/// headers this builds against (1.3.239) predate it. Values from the Khronos registry (see
/// shared/research/mma.md section 5).
#pragma once

#include "plugins/vulkan/VulkanSymbols.h"

#include <cstdint>

namespace tegula::vulkan {

inline constexpr const char* kCoopMatrixExtension = "VK_KHR_cooperative_matrix";
inline constexpr VkStructureType kStypeCoopMatrixFeatures = VkStructureType(1000506000);
inline constexpr VkStructureType kStypeCoopMatrixProperties = VkStructureType(1000506001);

struct CoopMatrixPropertiesKHR {
  VkStructureType sType;
  void* pNext;
  uint32_t MSize;
  uint32_t NSize;
  uint32_t KSize;
  uint32_t AType;  ///< VkComponentTypeKHR
  uint32_t BType;
  uint32_t CType;
  uint32_t ResultType;
  VkBool32 saturatingAccumulation;
  uint32_t scope;  ///< VkScopeKHR: 3 = subgroup
};

struct CoopMatrixFeaturesKHR {
  VkStructureType sType;
  void* pNext;
  VkBool32 cooperativeMatrix;
  VkBool32 cooperativeMatrixRobustBufferAccess;
};

using PFN_GetCoopMatrixProperties = VkResult(VKAPI_PTR*)(VkPhysicalDevice, uint32_t*, CoopMatrixPropertiesKHR*);

}  // namespace tegula::vulkan

namespace tegula::vulkan {

/// VK_NV_cooperative_matrix2 (extension 594): workgroup-scope matrices of flexible size.
inline constexpr const char* kCoopMatrix2Extension = "VK_NV_cooperative_matrix2";
inline constexpr VkStructureType kStypeCoopMatrix2Features = VkStructureType(1000593000);
inline constexpr VkStructureType kStypeCoopMatrixFlexibleProperties = VkStructureType(1000593001);
inline constexpr VkStructureType kStypeCoopMatrix2Properties = VkStructureType(1000593002);

struct CoopMatrix2FeaturesNV {
  VkStructureType sType;
  void* pNext;
  VkBool32 cooperativeMatrixWorkgroupScope;
  VkBool32 cooperativeMatrixFlexibleDimensions;
  VkBool32 cooperativeMatrixReductions;
  VkBool32 cooperativeMatrixConversions;
  VkBool32 cooperativeMatrixPerElementOperations;
  VkBool32 cooperativeMatrixTensorAddressing;
  VkBool32 cooperativeMatrixBlockLoads;
};

struct CoopMatrix2PropertiesNV {
  VkStructureType sType;
  void* pNext;
  uint32_t cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
  uint32_t cooperativeMatrixFlexibleDimensionsMaxDimension;
  uint32_t cooperativeMatrixWorkgroupScopeReservedSharedMemory;
};

struct CoopMatrixFlexiblePropertiesNV {
  VkStructureType sType;
  void* pNext;
  uint32_t MGranularity;
  uint32_t NGranularity;
  uint32_t KGranularity;
  uint32_t AType;
  uint32_t BType;
  uint32_t CType;
  uint32_t ResultType;
  VkBool32 saturatingAccumulation;
  uint32_t scope;
  uint32_t workgroupInvocations;
};

using PFN_GetCoopMatrixFlexibleProperties = VkResult(VKAPI_PTR*)(VkPhysicalDevice, uint32_t*, CoopMatrixFlexiblePropertiesNV*);

}  // namespace tegula::vulkan
