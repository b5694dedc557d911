// The reference device describes itself (device_target): a valid tegula.target.v1
// description named "reference", with the scalar fma as its only instruction. The runtime
// uses it rather than looking for a built-in description.
#include <doctest/doctest.h>

#include <cstdint>

#include "runtime/tests/TestSupport.h"
#include "targets/Target.h"

namespace reference_target_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("the reference device's own target description") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto device = rt->find_device("reference:0");
  REQUIRE(device.is_ok());
  CHECK(device->info()->target == "reference");
  auto json = device->target_json();
  REQUIRE(json.is_ok());
  auto t = parse_target(*json, "reference");
  REQUIRE(t.is_ok());
  CHECK(t->name == "reference");
  CHECK(t->max_threads_per_block == 1024);
  CHECK(t->shared_memory_per_block >= (int64_t(1) << 30));
  REQUIRE(t->matrix_instructions.size() == 1);
  CHECK(t->matrix_instructions[0].kind == InstructionKind::Fma);
  // Not a built-in: the description can only have come from the plugin.
  CHECK_FALSE(builtin_target("reference").is_ok());
}

TEST_CASE("a device without a description of its own uses the built-in one it names") {
  auto rt = open_runtime({test_manifest("abi_newer")});
  REQUIRE(rt.is_ok());
  auto device = rt->find_device("abi_newer:0");
  REQUIRE(device.is_ok());
  auto json = device->target_json();
  REQUIRE(json.is_ok());
  auto builtin = builtin_target("host_cpu");
  REQUIRE(builtin.is_ok());
  CHECK(*json == builtin->canonical_json);
}

}  // namespace reference_target_test
