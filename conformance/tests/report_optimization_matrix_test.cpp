// The report carries the optimization matrix on the tested devices' target descriptions,
// shows it in the HTML beside the primitives matrix, and verify derives it again: an edited
// cell is refused even when the editor reseals the integrity hash; measured figures, which
// cannot be derived, are covered by the hash; a report made before the matrix verifies with a
// note.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "conformance/Report.h"
#include "conformance/Verify.h"
#include "conformance/tests/TestSupport.h"
#include "core/Files.h"

namespace report_optimization_matrix_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

namespace {

const std::string& matrix_report_dir() {
  static const std::string out = [] {
    std::string dir = scratch("report_optimization_matrix");
    CliRun run = run_conformance("conformance_narrow",
                                 "--filter 'tegula.copy.global_shared.*' --jobs 2 --quiet --out '" + dir + "'");
    if (run.status != 0) MESSAGE(run.output);
    return dir;
  }();
  return out;
}

Json& cell_of(Json& report, const std::string& row, const std::string& device) {
  Json& m = *const_cast<Json*>(report.find("optimizations"));
  for (Json& r : const_cast<Json*>(m.find("rows"))->items())
    if (field(r, "id") == row) return *const_cast<Json*>(r.find("cells")->find(device));
  FAIL("no row " << row);
  return report;
}

std::vector<std::string> verify_edited(const Json& base, const std::string& name,
                                       const std::function<void(Json&)>& edit, bool seal) {
  return verify_edited_report(base, "report_optimization_matrix_" + name, edit, seal);
}

}  // namespace

TEST_CASE("the report's matrix has a column per tested device and a cell per row, and the page shows it") {
  Json report = load_report(matrix_report_dir());
  const Json* m = report.find("optimizations");
  REQUIRE(m);
  CHECK(field(*m, "schema") == "tegula.optimizations.v1");
  const Json& devices = *report.find("devices");
  REQUIRE(m->find("columns")->size() == devices.size());
  std::string device = field(devices.items()[0], "name");
  CHECK(m->find("columns")->items()[0].as_string() == device);
  CHECK(field(*m->find("column_targets"), device.c_str()) == field(*devices.items()[0].find("target"), "name"));
  CHECK(field(*m, "measured").find("PerfEffects.h") != std::string::npos);
  for (const Json& r : m->find("rows")->items()) {
    const Json* cell = r.find("cells")->find(device);
    REQUIRE(cell);
    std::string state = field(*cell, "state");
    CHECK((state == "applies" || state == "not_applicable" || state == "not_yet"));
    CHECK(field(*cell, "measured") == "not measured");
  }
  CHECK(*m == derive_optimizations(report));
  auto page = read_file(matrix_report_dir() + "/report.html");
  REQUIRE(page.is_ok());
  CHECK(page->find("<h2>Optimization matrix</h2>") != std::string::npos);
  CHECK(page->find("bulk tensor copy (TMA) with mbarriers") != std::string::npos);
  CHECK(page->find("<h2>Matrix</h2>") < page->find("<h2>Optimization matrix</h2>"));
}

TEST_CASE("verify derives the matrix again") {
  VerifyOutcome ok = verify_report(matrix_report_dir() + "/report.json");
  for (const std::string& e : ok.errors) MESSAGE(e);
  REQUIRE(ok.ok());
  Json base = load_report(matrix_report_dir());
  std::string device = field(base.find("devices")->items()[0], "name");

  SUBCASE("a cell claimed to apply, resealed") {
    auto e = verify_edited(
        base, "claim", [&](Json& r) { cell_of(r, "split_k", device).set("state", "applies"); }, true);
    CHECK(mentions(e, "the optimization matrix does not follow"));
    CHECK(mentions(e, "row split_k on " + device));
  }
  SUBCASE("a row removed, resealed") {
    auto e = verify_edited(
        base, "row",
        [](Json& r) {
          Json::Array& rows = const_cast<Json*>(r.find("optimizations")->find("rows"))->items();
          rows.erase(rows.begin());
        },
        true);
    CHECK(mentions(e, "row vector_access is missing"));
  }
  SUBCASE("a measured figure edited without a new hash") {
    auto e = verify_edited(
        base, "measured", [&](Json& r) { cell_of(r, "vector_access", device).set("measured", "2x"); }, false);
    CHECK(mentions(e, "integrity hash"));
    CHECK_FALSE(mentions(e, "optimization matrix"));
  }
  SUBCASE("a report made before the matrix existed") {
    Json old = base;
    std::erase_if(old.members(), [](const Json::Member& m) { return m.first == "optimizations"; });
    std::string dir = scratch("report_optimization_matrix_old");
    Json integrity = Json::object();
    integrity.set("sha256", integrity_hash(old));
    old.set("integrity", integrity);
    REQUIRE(write_file_atomic(dir + "/report.json", old.dump(1)).is_ok());
    VerifyOutcome v = verify_report(dir + "/report.json");
    CHECK(v.ok());
    bool noted = false;
    for (const std::string& n : v.notes) noted = noted || n.find("no optimization matrix") != std::string::npos;
    CHECK(noted);
  }
}

}  // namespace report_optimization_matrix_test
