// verify on a bundle with a performance section: a figure edited and the integrity hash
// resealed is refused (its value no longer follows from its method), and so are a declared
// peak edited, a figure removed, a section the run did not ask for and a missing section;
// an unmeasured figure must keep its reason (the reference model's, here).
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "conformance/Report.h"
#include "conformance/Verify.h"
#include "conformance/tests/TestSupport.h"
#include "core/Files.h"

namespace perf_verify_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

namespace {

const std::string& perf_report_dir() {
  static const std::string out = [] {
    std::string dir = scratch("perf_verify");
    CliRun run = run_conformance_with({"cpu", "reference"},
                                      "--filter 'tegula.fill.global.f32.*' --perf-filter 'tegula.perf.copy.registers,tegula.perf.launch,"
                                      "tegula.perf.example.gemm_fp8' --no-offline --quiet --out '" + dir + "'");
    if (run.status != 0) MESSAGE(run.output);
    return dir;
  }();
  return out;
}

Json& device_of(Json& report, const std::string& name) {
  for (Json& d : const_cast<Json*>(report.find("devices"))->items())
    if (field(d, "name") == name) return d;
  FAIL("no device " << name);
  return report;
}
Json& figures_of(Json& report, const std::string& device = "cpu:0") {
  return *const_cast<Json*>(const_cast<Json*>(device_of(report, device).find("performance"))->find("figures"));
}

std::vector<std::string> verify_edited(const std::string& name, const std::function<void(Json&)>& edit) {
  return verify_edited_report(load_report(perf_report_dir()), "perf_verify_" + name, edit);
}

}  // namespace

TEST_CASE("the unedited bundle verifies") {
  Json report = load_report(perf_report_dir());
  REQUIRE(report.find("devices"));
  REQUIRE(figures_of(report).size() == 3);
  VerifyOutcome v = verify_report(perf_report_dir() + "/report.json");
  CHECK_MESSAGE(v.errors.empty(), (v.errors.empty() ? "" : v.errors.front()));
}

TEST_CASE("a figure's value raised and resealed is refused") {
  auto errors = verify_edited("value", [](Json& r) {
    Json& f = figures_of(r).items()[0];
    f.set("value", f.find("value")->as_double() * 2);
  });
  CHECK(mentions(errors, "tegula.perf.copy.registers: its value, peak or percentage does not follow"));
}

TEST_CASE("a declared peak written in and resealed is refused") {
  auto errors = verify_edited("peak", [](Json& r) { figures_of(r).items()[0].set("peak", 1.0); });
  CHECK(mentions(errors, "does not follow from its method and the description"));
}

TEST_CASE("a figure removed is refused") {
  auto errors = verify_edited("removed", [](Json& r) { figures_of(r).items().pop_back(); });
  CHECK(mentions(errors, "2 figures where this build's suite has 3"));
}

TEST_CASE("an unmeasured figure keeps its reason") {
  // The reference model measures nothing, and says why; another reason is refused.
  Json report = load_report(perf_report_dir());
  const Json& first = figures_of(report, "reference:0").items()[0];
  CHECK(field(first, "not_measured").find("a software model") == 0);
  auto errors = verify_edited("reason", [](Json& r) { figures_of(r, "reference:0").items()[0].set("not_measured", "it was late"); });
  CHECK(mentions(errors, "a software model's figure says 'it was late'"));
  // A measured figure turned into an unmeasured one needs the suite's reason too.
  auto hidden = verify_edited("hidden", [](Json& r) {
    Json& f = figures_of(r).items()[2];
    Json kept = Json::object();
    for (const char* k : {"name", "what", "kind", "bound"}) kept.set(k, *f.find(k));
    kept.set("not_measured", "");
    f = kept;
  });
  CHECK(mentions(hidden, "tegula.perf.example.gemm_fp8: neither measured nor a reason why not"));
}

TEST_CASE("a section the run did not ask for, or a missing one, is refused") {
  auto extra = verify_edited("not_asked", [](Json& r) { const_cast<Json*>(r.find("run"))->set("perf", false); });
  CHECK(mentions(extra, "a performance section the run did not ask for"));
  auto missing = verify_edited("missing", [](Json& r) {
    Json& d = device_of(r, "cpu:0");
    Json::Object kept;
    for (auto& m : d.members())
      if (m.first != "performance") kept.push_back(m);
    d = Json::object(kept);
  });
  CHECK(mentions(missing, "this device has no performance section"));
}

}  // namespace perf_verify_test
