// Plugin::open reports every way a library can fail to become a plugin as an error naming the
// library and the cause, never an abort: a path with no library, a library without
// tg_plugin_query, a refusal (with the plugin's reason, or saying it gave none), an ABI
// version outside what was offered, a table lacking a required entry, and a failed init
// (its code and message kept).
#include <doctest/doctest.h>

#include "plugins/support/testing/PluginHarness.h"
#include "plugins/support/tests/HarnessTestUtil.h"

namespace harness_open_refusals_test {

using namespace tegula;
using namespace tegula::plugin_testing;
using tegula::plugin_testing::testing::library;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Status open_status(const std::string& path, const OpenOptions& o = {}) {
  Result<std::unique_ptr<Plugin>> p = Plugin::open(path, o);
  return p.is_ok() ? Status::ok() : p.status();
}

}  // namespace

TEST_CASE("a working plugin opens, and says who it is") {
  Result<std::unique_ptr<Plugin>> p = Plugin::open(library("reference"));
  REQUIRE_MESSAGE(p.is_ok(), p.status().str());
  Result<PluginInfo> info = (*p)->info();
  REQUIRE_MESSAGE(info.is_ok(), info.status().str());
  CHECK(info->name == "reference");
  Result<uint32_t> n = (*p)->device_count();
  REQUIRE(n.is_ok());
  CHECK(*n == 1);
}

TEST_CASE("no library at the path") {
  Status st = open_status("/nonexistent/libtegula_nothing.so");
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == ErrorCode::NotFound);
  CHECK_MESSAGE(has(st.message(), "/nonexistent/libtegula_nothing.so"), st.str());
}

TEST_CASE("a library without tg_plugin_query") {
  Status st = open_status(library("missing_symbol"));
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == ErrorCode::Plugin);
  CHECK_MESSAGE(has(st.message(), "does not export tg_plugin_query"), st.str());
}

TEST_CASE("a refused query, with and without a reason") {
  Status st = open_status(library("refuses"));
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == ErrorCode::Unsupported);
  CHECK_MESSAGE(has(st.message(), "no test hardware present"), st.str());
  Status silent = open_status(library("no_reason"));
  REQUIRE_FALSE(silent.is_ok());
  CHECK_MESSAGE(has(silent.message(), "(no reason given)"), silent.str());
  // The reference plugin speaks ABI 1 only: a host offering 2..3 is refused.
  OpenOptions newer;
  newer.host_min_abi = 2;
  newer.host_max_abi = 3;
  Status future = open_status(library("reference"), newer);
  REQUIRE_FALSE(future.is_ok());
  CHECK_MESSAGE(has(future.message(), "refused to load for ABI 2..3"), future.str());
}

TEST_CASE("a table that breaks the ABI's rules") {
  Status bad_abi = open_status(library("bad_abi"));  // answers version 7
  REQUIRE_FALSE(bad_abi.is_ok());
  CHECK(bad_abi.code() == ErrorCode::Plugin);
  CHECK_MESSAGE(has(bad_abi.message(), "answered ABI 7"), bad_abi.str());
  Status null_entry = open_status(library("null_entry"));  // launch is NULL
  REQUIRE_FALSE(null_entry.is_ok());
  CHECK_MESSAGE(has(null_entry.message(), "lacks the required entry launch"), null_entry.str());
  Status small = open_status(library("small_table"));
  REQUIRE_FALSE(small.is_ok());
  CHECK_MESSAGE(has(small.message(), "lacks the required entry"), small.str());
}

TEST_CASE("a failed init keeps the plugin's code and message") {
  Status st = open_status(library("init_fails"));
  REQUIRE_FALSE(st.is_ok());
  CHECK(last_code() == TG_ERR_DEVICE);
  CHECK(last_message() == "no license for the test accelerator");
  CHECK_MESSAGE(st.message() == "init: no license for the test accelerator (TG_ERR_DEVICE)", st.str());
}

}  // namespace harness_open_refusals_test
