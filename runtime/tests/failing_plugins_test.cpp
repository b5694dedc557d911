// Misuse: plugins whose calls fail. A failing init or device enumeration refuses the plugin;
// a failing device is skipped alone; calls that fail later come back as errors. The host
// never aborts and the reference plugin keeps running.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace failing_plugins_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("init fails") {
  auto rt = open_runtime({test_manifest("init_fails"), reference_manifest()});
  REQUIRE(rt.is_ok());
  CHECK(skip_reason(*rt, "init_fails") == "init_fails: init: no license for the test accelerator (TG_ERR_DEVICE)");
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
}

TEST_CASE("init works, device_count fails") {
  auto rt = open_runtime({test_manifest("count_fails"), reference_manifest()});
  REQUIRE(rt.is_ok());
  CHECK(skip_reason(*rt, "count_fails") == "count_fails: device_count: driver lost (TG_ERR_DEVICE)");
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
}

TEST_CASE("a device whose properties fail is skipped; one whose open fails reports it on use") {
  auto rt = open_runtime({test_manifest("device_fails"), reference_manifest()});
  REQUIRE(rt.is_ok());
  CHECK(skip_reason(*rt, "device_fails:0") == "device_fails: device_properties: device 0 fell off the bus (TG_ERR_DEVICE)");
  CHECK(device_names(*rt) == std::vector<std::string>{"device_fails:1", "reference:0"});
  auto device = rt->find_device("device_fails:1");
  REQUIRE(device.is_ok());
  auto buffer = device->alloc(64);
  CHECK(buffer.status().code() == ErrorCode::Device);
  CHECK(buffer.status().message() == "device_fails: device_open: cannot open the device (TG_ERR_DEVICE)");
  CHECK(device->synchronize().code() == ErrorCode::Device);

  auto reference = rt->find_device("reference");
  REQUIRE(reference.is_ok());
  CHECK(reference->alloc(64).is_ok());
}

}  // namespace failing_plugins_test
