// The default device is the best kind a plugin reports: the reference model only when
// nothing else exists, and reported as such.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace default_device_test {

using namespace tegula;

TEST_CASE("with only the reference plugin, the default device is reference:0, typed as a reference model") {
  auto rt = testing::open_runtime({testing::reference_manifest(), testing::null_manifest()});
  REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
  auto d = rt->default_device();
  REQUIRE_MESSAGE(d.is_ok(), d.status().str());
  auto info = d->info();
  REQUIRE(info.is_ok());
  CHECK(info->name == "reference:0");
  CHECK(info->device_type == TEGULA_DEVICE_TYPE_REFERENCE);
}

}  // namespace default_device_test
