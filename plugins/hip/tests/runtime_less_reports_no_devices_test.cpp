// On a machine without ROCm or without an AMD GPU (this one, CI) the plugin loads, initialises
// and reports 0 devices with no error; opening a device that is not there is NotFound.
#include <sys/stat.h>

#include "plugins/hip/tests/HipTest.h"

namespace runtime_less_reports_no_devices_test {

using namespace tegula;
using namespace tegula::hip::testing;

TEST_CASE("no HIP runtime or no GPU gives zero devices and no error") {
  HipPlugin& p = HipPlugin::get();
  REQUIRE_MESSAGE(p.plugin, p.why);
  auto n = p.plugin->device_count();
  REQUIRE_MESSAGE(n.is_ok(), n.status().str());
  struct stat st;
  if (stat("/dev/kfd", &st) == 0) {
    MESSAGE("this machine has /dev/kfd (an AMD GPU driver): not checking for zero devices");
    return;
  }
  CHECK(*n == 0);
  tg_device* device = nullptr;
  tg_error* e = p.plugin->api()->device_open(p.plugin->handle(), 0, &device);
  CHECK(p.plugin->code(e) == TG_ERR_NOT_FOUND);
}

}  // namespace runtime_less_reports_no_devices_test
