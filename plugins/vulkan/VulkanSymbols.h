/// \file
/// The Vulkan entry points the plugin uses, as X-macro lists by the level they are fetched
/// at: global (vkGetInstanceProcAddr with a null instance), instance and device
/// (vkGetDeviceProcAddr). libvulkan.so.1 is dlopen'ed and only vkGetInstanceProcAddr is
/// looked up with dlsym; nothing links against the loader. The types come from the Vulkan
/// headers (1.3.239 here); what those predate (VK_KHR_cooperative_matrix) is declared in
/// CoopMatrix.h.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan_core.h>

#define TG_VK_GLOBAL_SYMBOLS(X)            \
  X(vkCreateInstance)                      \
  X(vkEnumerateInstanceVersion)            \
  X(vkEnumerateInstanceExtensionProperties)

#define TG_VK_INSTANCE_SYMBOLS(X)                \
  X(vkDestroyInstance)                           \
  X(vkEnumeratePhysicalDevices)                  \
  X(vkGetPhysicalDeviceProperties)               \
  X(vkGetPhysicalDeviceProperties2)              \
  X(vkGetPhysicalDeviceFeatures2)                \
  X(vkGetPhysicalDeviceQueueFamilyProperties)    \
  X(vkGetPhysicalDeviceMemoryProperties)         \
  X(vkEnumerateDeviceExtensionProperties)        \
  X(vkCreateDevice)                              \
  X(vkGetDeviceProcAddr)

#define TG_VK_DEVICE_SYMBOLS(X)        \
  X(vkDestroyDevice)                   \
  X(vkGetDeviceQueue)                  \
  X(vkDeviceWaitIdle)                  \
  X(vkCreateBuffer)                    \
  X(vkDestroyBuffer)                   \
  X(vkGetBufferMemoryRequirements)     \
  X(vkAllocateMemory)                  \
  X(vkFreeMemory)                      \
  X(vkBindBufferMemory)                \
  X(vkMapMemory)                       \
  X(vkUnmapMemory)                     \
  X(vkCreateCommandPool)               \
  X(vkDestroyCommandPool)              \
  X(vkAllocateCommandBuffers)          \
  X(vkFreeCommandBuffers)              \
  X(vkBeginCommandBuffer)              \
  X(vkEndCommandBuffer)                \
  X(vkCmdCopyBuffer)                   \
  X(vkCmdFillBuffer)                   \
  X(vkCmdPipelineBarrier)              \
  X(vkCmdBindPipeline)                 \
  X(vkCmdBindDescriptorSets)           \
  X(vkCmdPushConstants)                \
  X(vkCmdDispatch)                     \
  X(vkCmdWriteTimestamp)               \
  X(vkCmdResetQueryPool)               \
  X(vkQueueSubmit)                     \
  X(vkCreateFence)                     \
  X(vkDestroyFence)                    \
  X(vkWaitForFences)                   \
  X(vkGetFenceStatus)                  \
  X(vkCreateShaderModule)              \
  X(vkDestroyShaderModule)             \
  X(vkCreateDescriptorSetLayout)       \
  X(vkDestroyDescriptorSetLayout)      \
  X(vkCreatePipelineLayout)            \
  X(vkDestroyPipelineLayout)           \
  X(vkCreateComputePipelines)          \
  X(vkDestroyPipeline)                 \
  X(vkCreateDescriptorPool)            \
  X(vkDestroyDescriptorPool)           \
  X(vkAllocateDescriptorSets)          \
  X(vkUpdateDescriptorSets)            \
  X(vkCreateQueryPool)                 \
  X(vkDestroyQueryPool)                \
  X(vkGetQueryPoolResults)

namespace tegula::vulkan {

#define TG_VK_MEMBER(name) PFN_##name name = nullptr;

/// Global and instance-level functions (one table per plugin instance).
struct InstanceFns {
  TG_VK_GLOBAL_SYMBOLS(TG_VK_MEMBER)
  TG_VK_INSTANCE_SYMBOLS(TG_VK_MEMBER)
};

/// Device-level functions (one table per opened device).
struct DeviceFns {
  TG_VK_DEVICE_SYMBOLS(TG_VK_MEMBER)
};

#undef TG_VK_MEMBER

}  // namespace tegula::vulkan
