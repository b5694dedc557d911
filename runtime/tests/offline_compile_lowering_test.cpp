// tegula_plugin_compile_offline lowers as tegula_kernel_compile does (tegula.h): for the same
// target the offline bytes are those the device compile made up front. The reference
// executable is the lowered kernel, so any difference in lowering options shows in its text.
#include <doctest/doctest.h>

#include <string>

#include "core/Files.h"
#include "runtime/tests/TestSupport.h"

namespace offline_compile_lowering_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("offline compilation gives the executable the device compile made up front") {
  auto rt = open_runtime({reference_manifest()}, nullptr, "off");
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto target = d->target_json();
  REQUIRE(target.is_ok());
  auto text = read_file(example("reduce/row_sum.tile"));
  REQUIRE(text.is_ok());
  auto k = d->compile(*text);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto on_device = k->describe();  // no launch: the up-front executable
  REQUIRE(on_device.is_ok());

  auto offline = rt->compile_offline("reference", *target, *text);
  REQUIRE_MESSAGE(offline.is_ok(), offline.status().str());
  auto described = rt->describe_executable("reference", *offline);
  REQUIRE(described.is_ok());
  CHECK(described->find("lower.tensor_align=16") != std::string::npos);
  CHECK(*described == *on_device);
}

}  // namespace offline_compile_lowering_test
