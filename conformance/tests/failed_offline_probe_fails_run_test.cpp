// An offline probe that fails for any reason other than "unsupported" or "unimplemented"
// (here the opaque test plugin's internal error on sm_90a) does not hide the target: it is
// reported as a target that could not be tested, and the run fails.
#include <doctest/doctest.h>

#include <string>

#include "conformance/tests/TestSupport.h"

namespace failed_offline_probe_fails_run_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("a probe that fails with an internal error makes an untestable target") {
  std::string out = scratch("failed_offline_probe");
  CliRun run = run_conformance("conformance_opaque", "--device conformance_opaque@sm_90a --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  Json report = load_report(out);
  const Json* devices = report.find("devices");
  REQUIRE(devices);
  bool saw_sm90 = false;
  for (const Json& d : devices->items()) {
    if (field(d, "name") != "conformance_opaque@sm_90a") continue;
    saw_sm90 = true;
    CHECK(field(d, "error").find("offline probe failed") != std::string::npos);
    CHECK(field(d, "error").find("on purpose") != std::string::npos);
  }
  CHECK(saw_sm90);
  CHECK(run_conformance("conformance_opaque", "verify '" + out + "'").status == 0);
}

}  // namespace failed_offline_probe_fails_run_test
