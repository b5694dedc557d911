// The out-of-range cases judge an erroneous kernel (a store and a load past a tensor's end)
// by what the device declares: the reference declares them detected and refuses the
// launches (Pass, the detail saying so, the report's identity recording it); a device that
// declares detected but lets the launch succeed fails them; a device that declares them
// undefined (CUDA does) is not given them (NotSupported, saying why), and its report verifies.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace out_of_range_declared_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("the reference device detects out-of-range accesses, as it declares") {
  std::string out = scratch("out_of_range_reference");
  CliRun run = run_conformance("reference", "--filter 'tegula.out_of_range.*' --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 0);
  Json report = load_report(out);
  std::vector<Json> recs = records(report, "reference:0");
  REQUIRE(recs.size() == 2);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "Pass", field(r, "name"));
    CHECK(field(r, "detail").find("the device declares out-of-range accesses detected: the launch failed (") == 0);
  }
  const Json* devices = report.find("devices");
  REQUIRE(devices);
  bool found = false;
  for (const Json& d : devices->items()) {
    if (field(d, "name") != "reference:0") continue;
    const Json* id = d.find("identity");
    REQUIRE(id);
    CHECK(field(*id, "out_of_range") == "detected");
    found = true;
  }
  CHECK(found);
}

TEST_CASE("a device that declares detection but reports nothing fails them") {
  std::string out = scratch("out_of_range_blind");
  CliRun run = run_conformance("conformance_blind", "--filter 'tegula.out_of_range.*' --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_blind:0");
  REQUIRE(recs.size() == 2);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "Fail", field(r, "name"));
    CHECK(field(r, "check") == "out_of_range");
    CHECK(field(r, "detail") ==
          "the device declares out-of-range accesses detected, but the launch of a kernel that accesses past its tensor succeeded");
  }
}

TEST_CASE("a device that declares out-of-range accesses undefined is not given them, and its report verifies") {
  std::string out = scratch("out_of_range_undefined");
  CliRun run = run_conformance("conformance_undefined", "--filter 'tegula.out_of_range.*' --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 0);
  Json report = load_report(out);
  std::vector<Json> recs = records(report, "conformance_undefined:0");
  REQUIRE(recs.size() == 2);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "NotSupported", field(r, "name"));
    CHECK(field(r, "detail") == "the device declares out-of-range accesses undefined: an erroneous kernel is not run on it");
  }
  const Json* devices = report.find("devices");
  REQUIRE(devices);
  bool found = false;
  for (const Json& d : devices->items()) {
    if (field(d, "name") != "conformance_undefined:0") continue;
    const Json* id = d.find("identity");
    REQUIRE(id);
    CHECK(field(*id, "out_of_range") == "undefined");
    found = true;
  }
  CHECK(found);
  CliRun verified = run_conformance("conformance_undefined", "verify '" + out + "'");
  CHECK_MESSAGE(verified.status == 0, verified.output);
}

}  // namespace out_of_range_declared_test
