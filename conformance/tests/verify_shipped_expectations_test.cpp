// A report's embedded expectation list is its author's: verify accepts its marks only where
// this build's own list for the plugin (when it ships one) would excuse the same failures.
// A report that excuses a failure with a list of its own is rejected; an honest one passes.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/Expectations.h"
#include "conformance/Report.h"
#include "conformance/tests/TestSupport.h"

namespace verify_shipped_expectations_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

TEST_CASE("failures excused by a report's own expectation list are rejected") {
  std::string out = scratch("verify_shipped_expectations");
  // The reference plugin ships an empty list; this run uses one that excuses a fill case.
  const std::string list_text =
      "{\"schema\": \"tegula.conformance.expectations.v1\", \"plugin\": \"reference\", \"expected_failures\": ["
      "{\"cases\": \"tegula.fill.global.f32.*\", \"reason\": \"not ours\"}]}";
  REQUIRE(make_dirs(out + "/x").is_ok());
  REQUIRE(write_file_atomic(out + "/x/reference.json", list_text).is_ok());
  CliRun run = run_conformance("reference", "--filter 'tegula.fill.global.f32.*' --expectations '" + out + "/x' --jobs 2 --quiet --out '" +
                                                out + "/honest'");
  INFO(run.output);
  REQUIRE(run.status == 0);
  // Nothing failed, so nothing was excused: the report verifies.
  CliRun honest = run_conformance("reference", "verify '" + out + "/honest'");
  INFO(honest.output);
  CHECK(honest.status == 0);

  // The same report with one record turned into a failure its own list excuses.
  Json report = load_report(out + "/honest");
  Result<ExpectationList> list = ExpectationList::parse(list_text, "x/reference.json");
  REQUIRE(list.is_ok());
  Json& device = const_cast<Json*>(report.find("devices"))->items()[0];
  Json& forged = const_cast<Json*>(device.find("records"))->items()[0];
  forged.set("outcome", "Fail");
  forged.set("check", "values");
  forged.set("detail", "1 of 1 elements differ");
  forged.set("mismatches", Json(1));
  Result<std::vector<Record>> recs = device_records(device);
  REQUIRE(recs.is_ok());
  std::vector<std::string> passes = apply_expectations(*list, field(device, "name"), *recs);
  REQUIRE((*recs)[0].expected_failure == "not ours");
  forged.set("expected_failure", "not ours");
  derive_device(device, *recs, passes);
  report.set("summary", derive_summary(report));
  Json integrity = Json::object();
  integrity.set("sha256", integrity_hash(report));
  report.set("integrity", integrity);
  REQUIRE(make_dirs(out + "/forged").is_ok());
  REQUIRE(write_file_atomic(out + "/forged/report.json", report.dump(1)).is_ok());
  CliRun audit = run_conformance("reference", "verify '" + out + "/forged'");
  INFO(audit.output);
  CHECK(audit.status == 1);
  CHECK(audit.output.find("excused as an expected failure by the report's expectation list, not by this build's") != std::string::npos);
}

}  // namespace verify_shipped_expectations_test
