// A plugin's expectation list turns the failures it names into expected failures: the run
// exits 0 when every failure is expected, and 1 when one is not; the records keep their
// outcome and carry the reason.
#include <doctest/doctest.h>

#include <string>

#include "conformance/tests/TestSupport.h"

namespace expected_failures_test {

using namespace tegula;
using namespace tegula::conformance::testing;

namespace {

void write_expectations(const std::string& dir, const std::string& plugin, const std::string& entries) {
  REQUIRE(make_dirs(dir).is_ok());
  REQUIRE(write_file_atomic(dir + "/" + plugin + ".json", "{\"schema\": \"tegula.conformance.expectations.v1\", \"plugin\": \"" + plugin +
                                                              "\", \"expected_failures\": [" + entries + "]}")
              .is_ok());
}

}  // namespace

TEST_CASE("expected failures do not fail the run; unexpected ones do") {
  std::string out = scratch("expected_failures");
  std::string xdir = out + "/expectations";
  write_expectations(xdir, "conformance_wrong",
                     "{\"cases\": \"tegula.copy.global_shared.*\", \"reason\": \"a known bug\", \"issue\": \"https://example.org/1\"}");
  CliRun run = run_conformance("conformance_wrong", "--filter 'tegula.copy.global_shared.*' --expectations '" + xdir +
                                                        "' --jobs 2 --quiet --out '" + out + "/a'");
  INFO(run.output);
  CHECK(run.status == 0);
  Json report = load_report(out + "/a");
  for (const Json& r : records(report, "conformance_wrong:0")) {
    CHECK(field(r, "outcome") == "Fail");
    CHECK(field(r, "expected_failure") == "a known bug (https://example.org/1)");
  }
  CHECK(report.find("summary")->find("expected_failures")->as_int() > 0);
  CHECK(report.find("summary")->find("unexpected_failures")->as_int() == 0);
  CHECK(run_conformance("conformance_wrong", "verify '" + out + "/a'").status == 0);

  // A failure the list does not name still fails the run.
  CliRun more = run_conformance("conformance_wrong", "--filter 'tegula.copy.global_shared.*,tegula.fill.global.f32.*' --expectations '" +
                                                         xdir + "' --jobs 2 --quiet --out '" + out + "/b'");
  CHECK(more.status == 1);
  CHECK(load_report(out + "/b").find("summary")->find("unexpected_failures")->as_int() == 3);
}

TEST_CASE("a malformed expectation list stops the run") {
  std::string out = scratch("expected_failures_malformed");
  write_expectations(out + "/x", "reference", "{\"cases\": \"tegula.*\"}");  // no reason
  CliRun run = run_conformance("reference", "--filter 'tegula.fill.global.f32.*' --expectations '" + out + "/x' --quiet --out '" + out + "/r'");
  CHECK(run.status == 2);
  CHECK(run.output.find("needs a 'reason'") != std::string::npos);
}

}  // namespace expected_failures_test
