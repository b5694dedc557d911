// What a device does with an element access outside its tensor is a declared property,
// appended to tg_device_properties by the ABI's rule: each in-tree plugin declares it (the
// reference detects), it reaches tegula_device_get_info and Device::info(), a plugin built
// before the field (answering the first release's size) still loads and reads "undeclared",
// and a caller's older, smaller tegula_device_info does not get it.
#include <doctest/doctest.h>

#include <cstring>

#include "runtime/tests/TestSupport.h"

namespace device_out_of_range_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("the reference device declares out-of-range accesses detected") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto info = d->info();
  REQUIRE(info.is_ok());
  CHECK(info->out_of_range == TEGULA_OUT_OF_RANGE_DETECTED);
  CHECK(std::string(out_of_range_name(info->out_of_range)) == "detected");
}

TEST_CASE("a plugin answering the first release's tg_device_properties loads, its devices undeclared") {
  auto rt = open_runtime({test_manifest("abi_newer")});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("abi_newer");
  REQUIRE_MESSAGE(d.is_ok(), d.status().str());
  auto info = d->info();
  REQUIRE(info.is_ok());
  CHECK(info->device_name == "test device");
  CHECK(info->out_of_range == TEGULA_OUT_OF_RANGE_UNDECLARED);
  CHECK(std::string(out_of_range_name(info->out_of_range)) == "undeclared");
}

TEST_CASE("a caller's older tegula_device_info gets the fields it has room for") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  tegula_device_info old;
  std::memset(&old, 0x5a, sizeof(old));
  old.struct_size = offsetof(tegula_device_info, out_of_range);
  REQUIRE(tegula_device_get_info(d->handle(), &old) == nullptr);
  CHECK(old.struct_size == offsetof(tegula_device_info, out_of_range));
  CHECK(old.device_type == TEGULA_DEVICE_TYPE_REFERENCE);
  CHECK(old.out_of_range == 0x5a5a5a5au);  // untouched
}

}  // namespace device_out_of_range_test
