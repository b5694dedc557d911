// Every failing call through the harness is a Status "<call>: <the plugin's message>
// (<TG_ERR_...>)" with tegula's code for it, and the raw code and message stay readable
// (last_code, last_message) until the next call through the harness on this thread, which
// resets them when it succeeds. Optional entries a table leaves out are Unimplemented.
#include <doctest/doctest.h>

#include "plugins/support/testing/PluginHarness.h"
#include "plugins/support/tests/HarnessTestUtil.h"

namespace harness_errors_test {

using namespace tegula;
using namespace tegula::plugin_testing;
using tegula::plugin_testing::testing::library;

namespace {

std::unique_ptr<Plugin> open_plugin(const std::string& name) {
  Result<std::unique_ptr<Plugin>> p = Plugin::open(library(name));
  REQUIRE_MESSAGE(p.is_ok(), p.status().str());
  return std::move(p).value();
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a refused call keeps its raw code; a good one clears it") {
  std::unique_ptr<Plugin> p = open_plugin("reference");
  Result<std::unique_ptr<Device>> d = p->open_device(0);
  REQUIRE_MESSAGE(d.is_ok(), d.status().str());
  Result<Executable> garbage = (*d)->load("not an executable");
  REQUIRE_FALSE(garbage.is_ok());
  CHECK(garbage.status().code() == ErrorCode::Corrupt);
  CHECK(last_code() == TG_ERR_CORRUPT);
  CHECK_FALSE(last_message().empty());
  CHECK_MESSAGE(has(garbage.status().message(), "executable_load: "), garbage.status().str());
  CHECK_MESSAGE(has(garbage.status().message(), "(TG_ERR_CORRUPT)"), garbage.status().str());
  CHECK(p->device_count().is_ok());
  CHECK(last_code() == TG_OK);
  CHECK(last_message().empty());

  Result<DeviceProperties> missing = p->device_properties(7);
  REQUIRE_FALSE(missing.is_ok());
  CHECK(last_code() == TG_ERR_NOT_FOUND);
  CHECK(missing.status().code() == ErrorCode::NotFound);
  Result<std::unique_ptr<Device>> no_device = p->open_device(7);
  REQUIRE_FALSE(no_device.is_ok());
  CHECK(last_code() == TG_ERR_NOT_FOUND);

  // A copy past the end of a buffer, and the raw entry made wrong on purpose.
  Result<Buffer> b = (*d)->alloc(16);
  REQUIRE(b.is_ok());
  char bytes[32] = {};
  CHECK_FALSE((*d)->write(*b, bytes, 32).is_ok());
  CHECK(last_code() == TG_ERR_INVALID_ARGUMENT);
  CHECK((*d)->write(*b, bytes, 16).is_ok());
  CHECK(p->code(p->api()->buffer_alloc((*d)->handle(), 8, nullptr)) == TG_ERR_INVALID_ARGUMENT);
  CHECK(p->code(nullptr) == TG_OK);
}

TEST_CASE("device properties and description") {
  std::unique_ptr<Plugin> p = open_plugin("reference");
  Result<DeviceProperties> props = p->device_properties(0);
  REQUIRE_MESSAGE(props.is_ok(), props.status().str());
  CHECK(props->target == "reference");
  CHECK(props->device_type == TG_DEVICE_TYPE_REFERENCE);
  Result<TargetDescription> t = p->device_target(0);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  CHECK(t->name == "reference");
}

TEST_CASE("optional entries past the table's end are Unimplemented, not called") {
  std::unique_ptr<Plugin> p = open_plugin("short_table");  // ends before event_elapsed_ms
  Result<std::string> described = p->describe("anything");
  REQUIRE_FALSE(described.is_ok());
  CHECK(described.status().code() == ErrorCode::Unimplemented);
  Result<std::string> offline = p->compile_offline("{}", "kernel k() grid(1) threads(1) { }");
  REQUIRE_FALSE(offline.is_ok());
  CHECK(offline.status().code() == ErrorCode::Unimplemented);
}

}  // namespace harness_errors_test
