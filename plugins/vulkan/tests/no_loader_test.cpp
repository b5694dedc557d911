// A machine without the Vulkan loader, or whose loader finds no driver, has zero vulkan
// devices: init succeeds, device_count says 0, and asking for device 0 is NOT_FOUND.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <cstring>

namespace no_loader_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("without a loader the plugin reports no devices and no error") {
  VulkanPlugin p("/nonexistent/libvulkan.so.1");
  CHECK(p.devices() == 0);
  tg_device_properties props;
  std::memset(&props, 0, sizeof(props));
  props.struct_size = sizeof(props);
  CHECK(p.code(p.api()->device_properties(p.handle(), 0, &props)) == TG_ERR_NOT_FOUND);
  tg_device* d = nullptr;
  CHECK(p.code(p.api()->device_open(p.handle(), 0, &d)) == TG_ERR_NOT_FOUND);
}

TEST_CASE("a loader without drivers reports no devices") {
  const char* old = std::getenv("VK_ICD_FILENAMES");
  std::string saved = old ? old : "";
  setenv("VK_ICD_FILENAMES", "/nonexistent/icd.json", 1);
  setenv("VK_DRIVER_FILES", "/nonexistent/icd.json", 1);
  {
    VulkanPlugin p;
    CHECK(p.devices() == 0);
  }
  if (old) {
    setenv("VK_ICD_FILENAMES", saved.c_str(), 1);
    setenv("VK_DRIVER_FILES", saved.c_str(), 1);
  }
}

}  // namespace no_loader_test
