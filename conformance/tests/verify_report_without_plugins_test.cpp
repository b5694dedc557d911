// `verify` rejects a report that has no "plugins" array with an error naming it, rather
// than crashing when it matches the devices' expectations against the plugin list.
#include <doctest/doctest.h>

#include <string>

#include "conformance/Verify.h"
#include "conformance/tests/TestSupport.h"

namespace verify_report_without_plugins_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

TEST_CASE("a report without plugins is rejected, not a crash") {
  std::string dir = scratch("verify_without_plugins");
  std::string report = R"({"schema": "tegula.conformance.report.v1", "run": {"profile": "full"}, "devices": []})";
  REQUIRE(write_file_atomic(dir + "/report.json", report).is_ok());
  CliRun run = run_conformance("reference", "verify '" + dir + "/report.json'");
  INFO(run.output);
  CHECK(run.status == 1);
  CHECK(run.output.find("no 'plugins' array") != std::string::npos);
}

}  // namespace verify_report_without_plugins_test
