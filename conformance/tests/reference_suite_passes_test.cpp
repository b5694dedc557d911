// The whole suite, as certifiers run it, on the reference device: every case passes, the
// run exits 0, and its report verifies.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace reference_suite_passes_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("the whole suite passes on reference:0 and its report verifies") {
  std::string out = scratch("reference_suite");
  CliRun run = run_conformance("reference", "--device reference:0 --jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 0);
  Json report = load_report(out);
  std::vector<Json> recs = records(report, "reference:0");
  CHECK(recs.size() > 1500);
  for (const Json& r : recs) {
    std::string outcome = field(r, "outcome");
    CHECK_MESSAGE(outcome == "Pass", field(r, "name") << ": " << outcome << ": " << field(r, "detail"));
  }
  CHECK(field(*report.find("summary"), "verdict") == "conformant");
  CliRun verify = run_conformance("reference", "verify '" + out + "'");
  INFO(verify.output);
  CHECK(verify.status == 0);
}

}  // namespace reference_suite_passes_test
