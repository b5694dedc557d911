// Under --strict, an expectation entry naming a case that passes (an unexpected pass), or
// naming no case at all (stale), fails the run, so entries are removed once the plugin is
// fixed. Without --strict they are reported but do not fail it.
#include <doctest/doctest.h>

#include <string>

#include "conformance/tests/TestSupport.h"

namespace strict_mode_test {

using namespace tegula;
using namespace tegula::conformance::testing;

namespace {

std::string expectations(const std::string& dir, const std::string& entries) {
  REQUIRE(make_dirs(dir).is_ok());
  REQUIRE(write_file_atomic(dir + "/reference.json", "{\"schema\": \"tegula.conformance.expectations.v1\", \"plugin\": \"reference\", "
                                                     "\"expected_failures\": [" + entries + "]}")
              .is_ok());
  return dir;
}

}  // namespace

TEST_CASE("an unexpected pass fails only under --strict") {
  std::string out = scratch("strict_unexpected_pass");
  std::string x = expectations(out + "/x", "{\"cases\": \"tegula.fill.global.f32.lattice\", \"reason\": \"was broken\"}");
  std::string args = "--filter 'tegula.fill.global.f32.*' --expectations '" + x + "' --jobs 1 --out '" + out;
  CliRun lenient = run_conformance("reference", args + "/lenient'");
  INFO(lenient.output);
  CHECK(lenient.status == 0);
  CHECK(lenient.output.find("unexpected pass reference:0: tegula.fill.global.f32.lattice") != std::string::npos);
  CliRun strict = run_conformance("reference", args + "/strict' --strict");
  CHECK(strict.status == 1);
  Json report = load_report(out + "/strict");
  CHECK(report.find("summary")->find("unexpected_passes")->as_int() == 1);
  CHECK(field(*report.find("summary"), "verdict") == "not conformant");
  CHECK(run_conformance("reference", "verify '" + out + "/strict'").status == 0);
}

TEST_CASE("a stale entry fails only under --strict") {
  std::string out = scratch("strict_stale");
  std::string x = expectations(out + "/x", "{\"cases\": \"tegula.no_such_primitive.*\", \"reason\": \"long gone\"}");
  std::string args = "--filter 'tegula.fill.global.f32.*' --expectations '" + x + "' --jobs 1 --out '" + out;
  CliRun lenient = run_conformance("reference", args + "/lenient'");
  CHECK(lenient.status == 0);
  CHECK(lenient.output.find("stale expectation in reference: tegula.no_such_primitive.*") != std::string::npos);
  CHECK(run_conformance("reference", args + "/strict' --strict").status == 1);
}

}  // namespace strict_mode_test
