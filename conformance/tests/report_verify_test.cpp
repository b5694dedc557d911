// `verify` accepts a report as written and rejects it after any of a range of edits, even
// when the editor recomputes the counts, the summary and the integrity hash.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "conformance/Report.h"
#include "conformance/Verify.h"
#include "conformance/tests/TestSupport.h"
#include "targets/Target.h"

namespace report_verify_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

namespace {

Json& first_device(Json& report) { return const_cast<Json*>(report.find("devices"))->items()[0]; }

Json& record_with(Json& report, const std::string& outcome) {
  for (Json& r : const_cast<Json*>(first_device(report).find("records"))->items())
    if (field(r, "outcome") == outcome) return r;
  FAIL("no record with outcome " << outcome);
  return report;
}

/// What a careful forger does after an edit: recompute every derived field and the hash.
void reseal(Json& report) {
  for (Json& d : const_cast<Json*>(report.find("devices"))->items()) {
    auto recs = device_records(d);
    if (!recs.is_ok()) continue;
    std::vector<std::string> passes;
    for (const Json& p : d.find("unexpected_passes")->items()) passes.push_back(p.as_string());
    derive_device(d, *recs, passes);
  }
  report.set("summary", derive_summary(report));
  Json integrity = Json::object();
  integrity.set("sha256", integrity_hash(report));
  report.set("integrity", integrity);
}

/// Writes the edited report (JSON only) and verifies it; the errors.
std::vector<std::string> verify_edit(const Json& base, const std::string& name, const std::function<void(Json&)>& edit, bool seal = true) {
  Json report = base;
  edit(report);
  if (seal) reseal(report);
  std::string dir = scratch("report_verify_" + name);
  REQUIRE(write_file_atomic(dir + "/report.json", report.dump(1)).is_ok());
  VerifyOutcome v = verify_report(dir + "/report.json");
  return v.errors;
}

}  // namespace

/// One run for every subcase (doctest runs the test body once per subcase).
const std::string& report_dir() {
  static const std::string out = [] {
    std::string dir = scratch("report_verify");
    CliRun run = run_conformance("conformance_narrow", "--filter 'tegula.copy.global_shared.*,tegula.map.exp.*' --jobs 2 --quiet --out '" + dir + "'");
    if (run.status != 0) MESSAGE(run.output);
    return dir;
  }();
  return out;
}

TEST_CASE("verify accepts an untouched report and rejects edited ones") {
  std::string out = report_dir();
  VerifyOutcome ok = verify_report(out + "/report.json");
  for (const std::string& e : ok.errors) MESSAGE(e);
  REQUIRE(ok.ok());
  Json base = load_report(out);

  SUBCASE("an edit without a new integrity hash") {
    auto e = verify_edit(base, "unsealed", [](Json& r) { record_with(r, "Pass").set("outcome", "Fail"); }, false);
    CHECK(mentions(e, "integrity hash"));
  }
  SUBCASE("a NotSupported case turned into a Pass") {
    auto e = verify_edit(base, "claims", [](Json& r) { record_with(r, "NotSupported").set("outcome", "Pass"); });
    CHECK(mentions(e, "does not claim this case"));
  }
  SUBCASE("a Pass with an error on an exact case") {
    auto e = verify_edit(base, "exact_error", [](Json& r) { record_with(r, "Pass").set("max_abs_error", 0.5); });
    CHECK(mentions(e, "exact case passed with a non-zero error"));
  }
  SUBCASE("a record removed") {
    auto e = verify_edit(base, "removed", [](Json& r) {
      Json::Array& recs = const_cast<Json*>(first_device(r).find("records"))->items();
      recs.erase(recs.begin() + 3);
    });
    CHECK(mentions(e, "records for"));
  }
  SUBCASE("two records swapped") {
    auto e = verify_edit(base, "swapped", [](Json& r) {
      Json::Array& recs = const_cast<Json*>(first_device(r).find("records"))->items();
      std::swap(recs[1], recs[2]);
    });
    CHECK(mentions(e, "where the case list has"));
  }
  SUBCASE("a kernel hash changed") {
    auto e = verify_edit(base, "kernel", [](Json& r) { record_with(r, "Pass").set("kernel_sha256", std::string(64, '0')); });
    CHECK(mentions(e, "kernel hash"));
  }
  SUBCASE("the target description changed (and its hash with it)") {
    auto e = verify_edit(base, "target", [](Json& r) {
      Json& t = *const_cast<Json*>(first_device(r).find("target"));
      std::string json = field(t, "json");
      size_t at = json.find(",\"bool\"");
      REQUIRE(at != std::string::npos);
      json.erase(at, 7);  // no longer claims bool
      t.set("json", json);
      auto parsed = parse_target(json, "edited");
      REQUIRE(parsed.is_ok());
      t.set("sha256", target_hash(*parsed));
    });
    CHECK(mentions(e, "case list generated from its target description"));
  }
  SUBCASE("a bundle from a build whose suite has other cases says so, and how") {
    std::string renamed;
    auto e = verify_edit(base, "other_suite", [&](Json& r) {
      Json& d = first_device(r);
      d.set("case_list_sha256", std::string(64, 'c'));
      Json& rec = const_cast<Json*>(d.find("records"))->items()[2];
      renamed = field(rec, "name");
      rec.set("name", std::string("tegula.retired.case"));
    });
    CHECK(mentions(e, "the bundle was made by a build whose suite has other cases: this build has 1 it has no record of, first " +
                          renamed + ", and no case for 1 of its records, first tegula.retired.case; verify it with the build "
                          "that wrote it"));
  }
  SUBCASE("the tolerance table's hash") {
    auto e = verify_edit(base, "tolerances", [](Json& r) {
      const_cast<Json*>(const_cast<Json*>(r.find("suite"))->find("tolerance_table"))->set("sha256", std::string(64, 'f'));
    });
    CHECK(mentions(e, "tolerance table"));
  }
  SUBCASE("a plugin library's hash") {
    auto e = verify_edit(base, "library", [](Json& r) {
      const_cast<Json*>(r.find("plugins"))->items()[0].set("library_sha256", std::string(64, 'a'));
    });
    CHECK(mentions(e, "is not the library the report was made with"));
  }
  SUBCASE("an expected-failure mark the expectation list does not give") {
    auto e = verify_edit(base, "expected_mark", [](Json& r) {
      Json& rec = record_with(r, "Pass");
      rec.set("outcome", "Fail");
      rec.set("check", "values");
      rec.set("expected_failure", "excused");
    });
    CHECK(mentions(e, "expected-failure mark"));
  }
  SUBCASE("a verdict changed") {
    auto e = verify_edit(base, "verdict", [](Json& r) {
      record_with(r, "Pass").set("outcome", "Crash");
      reseal(r);
      const_cast<Json*>(r.find("summary"))->set("verdict", "conformant");
      const_cast<Json*>(r.find("summary"))->set("exit_status", Json(0));
      Json integrity = Json::object();
      integrity.set("sha256", integrity_hash(r));
      r.set("integrity", integrity);
    }, false);
    CHECK(mentions(e, "summary does not follow"));
  }
  SUBCASE("a record's seed") {
    auto e = verify_edit(base, "seed", [](Json& r) { record_with(r, "Pass").set("seed", "99"); });
    CHECK(mentions(e, "seed other than the run's"));
  }
  SUBCASE("the HTML page edited") {
    std::string dir = scratch("report_verify_html");
    REQUIRE(write_file_atomic(dir + "/report.json", base.dump(1)).is_ok());
    auto html = read_file(out + "/report.html");
    REQUIRE(html.is_ok());
    std::string page = *html;
    page.replace(page.find("not conformant") == std::string::npos ? page.find("conformant") : 0, 10, "CONFORMANT");
    REQUIRE(write_file_atomic(dir + "/report.html", page).is_ok());
    CHECK(mentions(verify_report(dir + "/report.json").errors, "report.html"));
  }
}

}  // namespace report_verify_test
