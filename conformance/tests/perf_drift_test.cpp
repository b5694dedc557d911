// --perf-baseline: a re-run against an earlier bundle lists the figures whose value moved
// beyond the larger of the two runs' measured spreads (here a baseline whose copy bandwidth
// was written a thousand times lower, and resealed: a rise, since a fall can never exceed a
// spread over 100%, which this shared 2-core machine shows under load), on the run's output, in the report and on
// the page; verify checks each entry against its figure; an edited entry is refused, and so
// is a baseline whose integrity hash does not hold.
#include <doctest/doctest.h>

#include <string>

#include "conformance/Report.h"
#include "conformance/Verify.h"
#include "conformance/tests/TestSupport.h"
#include "core/Files.h"

namespace perf_drift_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

namespace {

const char* kArgs = "--filter 'tegula.fill.global.f32.lattice' --perf-filter 'tegula.perf.copy.registers,tegula.perf.launch' --no-offline --quiet";

Json& figures_of(Json& report) {
  Json& d = const_cast<Json*>(report.find("devices"))->items()[0];
  return *const_cast<Json*>(const_cast<Json*>(d.find("performance"))->find("figures"));
}

}  // namespace

TEST_CASE("a figure that moved beyond its spread is drift, and verify checks it") {
  std::string base = scratch("perf_drift_base");
  CliRun first = run_conformance("cpu", std::string(kArgs) + " --out '" + base + "'");
  REQUIRE_MESSAGE(first.status == 0, first.output);
  Json baseline = load_report(base);
  Json& copy = figures_of(baseline).items()[0];
  REQUIRE(field(copy, "name") == "tegula.perf.copy.registers");
  double measured = copy.find("value")->as_double();
  copy.set("value", measured / 1000);
  reseal(baseline);
  REQUIRE(write_file_atomic(base + "/report.json", baseline.dump(1)).is_ok());

  std::string dir = scratch("perf_drift_now");
  CliRun second = run_conformance("cpu", std::string(kArgs) + " --perf-baseline '" + base + "' --out '" + dir + "'");
  REQUIRE_MESSAGE(second.status == 0, second.output);
  CHECK(second.output.find("perf drift on cpu:0: tegula.perf.copy.registers") != std::string::npos);
  Json report = load_report(dir);
  const Json* drift = report.find("devices")->items()[0].find("performance")->find("drift");
  REQUIRE(drift);
  CHECK(drift->find("compared")->as_int() == 2);
  CHECK(field(*drift, "baseline_integrity") == field(*baseline.find("integrity"), "sha256"));
  const Json* entry = nullptr;
  for (const Json& e : drift->find("figures")->items())
    if (field(e, "name") == "tegula.perf.copy.registers") entry = &e;
  REQUIRE(entry);
  CHECK(entry->find("change_pct")->as_double() > 10000);
  CHECK(entry->find("baseline_value")->as_double() == measured / 1000);
  Result<std::string> page = read_file(dir + "/report.html");
  REQUIRE(page.is_ok());
  CHECK(page->find("moved beyond their measured spread") != std::string::npos);

  VerifyOutcome v = verify_report(dir + "/report.json");
  CHECK_MESSAGE(v.errors.empty(), (v.errors.empty() ? "" : v.errors.front()));

  // An entry edited to say less, resealed: refused.
  Json edited = report;
  Json& d = const_cast<Json*>(edited.find("devices"))->items()[0];
  Json& figures = *const_cast<Json*>(const_cast<Json*>(const_cast<Json*>(d.find("performance"))->find("drift"))->find("figures"));
  for (Json& e : figures.items())
    if (field(e, "name") == "tegula.perf.copy.registers") e.set("change_pct", -1.0);
  reseal(edited);
  std::string bad = scratch("perf_drift_edited");
  REQUIRE(write_file_atomic(bad + "/report.json", edited.dump(1)).is_ok());
  bool refused = false;
  for (const std::string& e : verify_report(bad + "/report.json").errors)
    refused = refused || e.find("drift of tegula.perf.copy.registers: its change does not follow") != std::string::npos;
  CHECK(refused);
}

TEST_CASE("a baseline that was edited without resealing is refused before anything runs") {
  std::string base = scratch("perf_drift_forged");
  Json fake = Json::object();
  fake.set("schema", "tegula.conformance.report.v1");
  Json integrity = Json::object();
  integrity.set("sha256", "0000");
  fake.set("integrity", integrity);
  REQUIRE(write_file_atomic(base + "/report.json", fake.dump(1)).is_ok());
  CliRun run = run_conformance("cpu", std::string(kArgs) + " --perf-baseline '" + base + "' --out '" + scratch("perf_drift_unused") + "'");
  CHECK(run.status == 2);
  CHECK(run.output.find("--perf-baseline: ") != std::string::npos);
  CHECK(run.output.find("integrity hash does not match") != std::string::npos);
  CliRun missing = run_conformance("cpu", std::string(kArgs) + " --perf-baseline /nonexistent/bundle --out '" + scratch("perf_drift_unused2") + "'");
  CHECK(missing.status == 2);
}

}  // namespace perf_drift_test
