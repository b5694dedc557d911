// Devices are named "<plugin>:<index>", sorted by plugin name then index, whatever order the
// manifests were found in; their info is what the plugin reported.
#include <doctest/doctest.h>

#include <cstring>

#include "runtime/tests/TestSupport.h"

namespace device_enumeration_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("devices are sorted by plugin name, whatever the search order") {
  auto a = open_runtime({reference_manifest(), test_manifest("device_fails"), null_manifest(), test_manifest("abi_newer")});
  auto b = open_runtime({test_manifest("abi_newer"), null_manifest(), test_manifest("device_fails"), reference_manifest()});
  REQUIRE(a.is_ok());
  REQUIRE(b.is_ok());
  std::vector<std::string> expected = {"abi_newer:0", "device_fails:1", "reference:0"};
  CHECK(device_names(*a) == expected);
  CHECK(device_names(*b) == expected);
  for (size_t i = 0; i < tegula_device_count(a->handle()); ++i) CHECK(tegula_device_get(a->handle(), i) != nullptr);
  CHECK(tegula_device_get(a->handle(), 3) == nullptr);
  tegula_plugin_info p;
  p.struct_size = sizeof(p);
  REQUIRE(tegula_runtime_get_plugin(a->handle(), 0, &p) == nullptr);
  CHECK(std::string(p.name) == "abi_newer");
}

TEST_CASE("device info") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto info = rt->find_device("reference:0")->info();
  REQUIRE(info.is_ok());
  CHECK(info->name == "reference:0");
  CHECK(info->plugin == "reference");
  CHECK(info->plugin_version == tegula_version());
  CHECK(info->target == "reference");
  CHECK(info->device_name == "tegula reference interpreter");
  CHECK(info->vendor == "tegula");
  CHECK(info->driver_version == "");
  CHECK(info->memory_bytes > 0);
}

TEST_CASE("an older caller's smaller info struct is filled only as far as it reaches") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  struct {
    tegula_device_info info;
    unsigned char after[16];
  } small;
  std::memset(&small, 0xee, sizeof(small));
  small.info.struct_size = offsetof(tegula_device_info, device_name);  // an "old" struct
  REQUIRE(tegula_device_get_info(tegula_device_get(rt->handle(), 0), &small.info) == nullptr);
  CHECK(small.info.struct_size == offsetof(tegula_device_info, device_name));
  CHECK(std::string(small.info.name) == "reference:0");
  unsigned char untouched[sizeof(tegula_device_info) - offsetof(tegula_device_info, device_name)];
  std::memset(untouched, 0xee, sizeof(untouched));
  CHECK(std::memcmp(&small.info.device_name, untouched, sizeof(untouched)) == 0);
}

}  // namespace device_enumeration_test
