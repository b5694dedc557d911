// Misuse: plugins answering nonsense (NULL strings, absurd counts, broken tables, writes past
// a struct, unknown error codes, success without a result). Each is caught, logged and
// skipped or reported; none crashes or aborts the host.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace nonsense_plugins_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

std::string refusal(const std::string& plugin) {
  auto rt = open_runtime({test_manifest(plugin), reference_manifest()});
  REQUIRE(rt.is_ok());
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
  return skip_reason(*rt, plugin);
}

}  // namespace

TEST_CASE("broken tables and identities refuse the plugin") {
  CHECK(refusal("null_name") == "get_info: name is NULL");
  CHECK(refusal("name_mismatch") == "the library calls itself 'someone_else' but its manifest says 'name_mismatch'");
  CHECK(refusal("huge_count") == "device_count answered 1000000 devices (more than 4096 is not believable)");
  CHECK(refusal("null_entry") == "required entry 'launch' is NULL");
  CHECK(refusal("bad_abi") == "tg_plugin_query answered ABI version 7, outside the versions the host offered (1..1)");
  // Shorter than the first release's tg_plugin_info (the concurrency field's absence is fine:
  // concurrent_compile_test's serial_compile plugin answers TG_PLUGIN_INFO_SIZE_1).
  CHECK(refusal("short_info") == "get_info answered a tg_plugin_info of " +
                                     std::to_string(offsetof(tg_plugin_info, description)) + " bytes, the ABI needs " +
                                     std::to_string(TG_PLUGIN_INFO_SIZE_1));
  CHECK(refusal("small_table") == "function table is 16 bytes, ABI 1 needs at least " +
                                     std::to_string(offsetof(tg_plugin_api, event_synchronize) + sizeof(void*)));
}

TEST_CASE("devices answering nonsense are skipped one by one") {
  auto rt = open_runtime({test_manifest("bad_devices"), reference_manifest()});
  REQUIRE(rt.is_ok());
  CHECK(skip_reason(*rt, "bad_devices:0") == "device_properties: name is NULL");
  CHECK(skip_reason(*rt, "bad_devices:1") == "device_properties: name is longer than 256 bytes (or not NUL-terminated)");
  CHECK(skip_reason(*rt, "bad_devices:2") == "device_properties: vendor is not valid UTF-8");
  // The first release's size: an older plugin's answer is fine (device_out_of_range_test).
  CHECK(skip_reason(*rt, "bad_devices:3") == "device_properties answered a tg_device_properties of 8 bytes, the ABI needs " +
                                                 std::to_string(TG_DEVICE_PROPERTIES_SIZE_1));
  CHECK(skip_reason(*rt, "bad_devices:4") == "device_properties wrote past the end of tg_device_properties");
  CHECK(device_names(*rt) == std::vector<std::string>{"bad_devices:5", "bad_devices:6", "reference:0"});
  // Device 5 declares an out-of-range behaviour outside the enum: no declaration.
  auto five = rt->find_device("bad_devices:5");
  REQUIRE(five.is_ok());
  auto info = five->info();
  REQUIRE(info.is_ok());
  CHECK(info->out_of_range == TEGULA_OUT_OF_RANGE_UNDECLARED);
}

TEST_CASE("calls answering nonsense become errors") {
  auto rt = open_runtime({test_manifest("bad_devices")});
  REQUIRE(rt.is_ok());
  auto five = rt->find_device("bad_devices:5");
  REQUIRE(five.is_ok());
  auto b = five->alloc(8);
  CHECK(b.status().code() == ErrorCode::Plugin);
  CHECK(b.status().message() == "bad_devices: buffer_alloc: (no message) (unknown status code 999)");
  auto six = rt->find_device("bad_devices:6");
  REQUIRE(six.is_ok());
  CHECK(six->alloc(8).status().message() == "bad_devices: device_open reported success but returned no tg_device");
}

}  // namespace nonsense_plugins_test
