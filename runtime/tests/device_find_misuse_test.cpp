// Misuse: asking for a device that does not exist says which ones do.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace device_find_misuse_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("device names: full, plugin-only, unknown") {
  auto rt = open_runtime({reference_manifest(), test_manifest("abi_newer")});
  REQUIRE(rt.is_ok());
  CHECK(rt->find_device("reference")->info()->name == "reference:0");
  CHECK(rt->find_device("abi_newer:0")->info()->name == "abi_newer:0");
  auto missing = rt->find_device("cuda:0");
  CHECK(missing.status().code() == ErrorCode::NotFound);
  CHECK(missing.status().message() == "no device 'cuda:0'; available: abi_newer:0, reference:0");
  CHECK(rt->find_device("reference:1").status().code() == ErrorCode::NotFound);
  CHECK(rt->find_device("").status().code() == ErrorCode::NotFound);
}

TEST_CASE("with no devices at all the error says where to look") {
  auto rt = open_runtime({});
  REQUIRE(rt.is_ok());
  CHECK(rt->find_device("reference").status().message() ==
        "no device 'reference'; available: none (see TEGULA_LOADER_DEBUG=1)");
}

TEST_CASE("NULL arguments are errors, not crashes") {
  tegula_device* d = nullptr;
  tegula_error* e = tegula_device_find(nullptr, "x", &d);
  CHECK(tegula_error_get_code(e) == TEGULA_ERROR_INVALID_ARGUMENT);
  tegula_error_free(e);
  CHECK(tegula_device_get(nullptr, 0) == nullptr);
  CHECK(tegula_device_count(nullptr) == 0);
  e = tegula_device_get_info(nullptr, nullptr);
  CHECK(tegula_error_get_code(e) == TEGULA_ERROR_INVALID_ARGUMENT);
  tegula_error_free(e);
}

}  // namespace device_find_misuse_test
