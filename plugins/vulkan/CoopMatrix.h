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
