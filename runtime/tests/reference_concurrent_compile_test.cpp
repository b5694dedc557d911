// The reference plugin declares TG_CONCURRENT_COMPILE: kernels compiled side by side give the
// bytes of compiles alone, load side by side, and each computes its own kernel
// (plugins/support/testing/ConcurrentCompile.h). Every conformance test plugin built on it
// inherits the declaration.
#include <doctest/doctest.h>

#include "plugins/support/testing/ConcurrentCompile.h"
#include "plugins/support/testing/RunCompare.h"
#include "runtime/tests/TestSupport.h"

namespace reference_concurrent_compile_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("kernels compile and load side by side on the reference plugin") {
  auto p = plugin_testing::Plugin::open(plugin_library("reference"));
  REQUIRE_MESSAGE(p.is_ok(), p.status().str());
  Result<plugin_testing::PluginInfo> info = (*p)->info();
  REQUIRE_MESSAGE(info.is_ok(), info.status().str());
  CHECK((info->concurrency & TG_CONCURRENT_COMPILE) != 0);
  Result<TargetDescription> target = plugin_testing::resolve_target(**p, 0);
  REQUIRE_MESSAGE(target.is_ok(), target.status().str());
  auto device = (*p)->open_device(0);
  REQUIRE_MESSAGE(device.is_ok(), device.status().str());
  Status s = plugin_testing::check_concurrent_compile(**device, *target, 8);
  CHECK_MESSAGE(s.is_ok(), s.str());
}

TEST_CASE("compile_and_load_concurrently refuses a plugin that does not declare it") {
  auto p = plugin_testing::Plugin::open(plugin_library("serial_compile"));
  REQUIRE_MESSAGE(p.is_ok(), p.status().str());
  auto device = (*p)->open_device(0);
  REQUIRE_MESSAGE(device.is_ok(), device.status().str());
  auto r = plugin_testing::compile_and_load_concurrently(**device, {"anything"});
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().message().find("does not declare TG_CONCURRENT_COMPILE") != std::string::npos);
}

}  // namespace reference_concurrent_compile_test
