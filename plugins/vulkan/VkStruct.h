/// \file
/// make_struct: a zeroed Vulkan structure with its sType set, how the plugin starts every
/// create-info and feature/property query (one definition for all its files).
#pragma once

#include <cstring>

#include "plugins/vulkan/VulkanSymbols.h"

namespace tegula::vulkan {

template <typename S>
S make_struct(VkStructureType type) {
  S s;
  std::memset(&s, 0, sizeof(s));
  s.sType = type;
  return s;
}

}  // namespace tegula::vulkan
