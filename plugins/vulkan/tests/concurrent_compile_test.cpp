// The vulkan plugin declares TG_CONCURRENT_COMPILE: kernels compiled side by side give the
// bytes of compiles alone, load side by side (each a driver pipeline compile), and each
// computes its own kernel (plugins/support/testing/ConcurrentCompile.h).
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include "plugins/support/testing/ConcurrentCompile.h"
#include "plugins/support/testing/RunCompare.h"

namespace concurrent_compile_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("kernels compile and load side by side on the Vulkan device") {
  VulkanPlugin p;
  Result<plugin_testing::PluginInfo> info = p.plugin->info();
  REQUIRE_MESSAGE(info.is_ok(), info.status().str());
  CHECK((info->concurrency & TG_CONCURRENT_COMPILE) != 0);
  if (p.devices() == 0) {
    MESSAGE("no Vulkan device");
    return;
  }
  Result<TargetDescription> target = plugin_testing::resolve_target(*p.plugin, 0);
  REQUIRE_MESSAGE(target.is_ok(), target.status().str());
  auto device = p.plugin->open_device(0);
  REQUIRE_MESSAGE(device.is_ok(), device.status().str());
  Status s = plugin_testing::check_concurrent_compile(**device, *target, 8);
  CHECK_MESSAGE(s.is_ok(), s.str());
}

}  // namespace concurrent_compile_test
