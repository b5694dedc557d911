// A device that never writes NaN results fails: where the reference's result is a NaN the
// output starts at a finite sentinel, not at the NaN poison that any NaN would match. The
// cases without NaN results still pass on the same device.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace catches_unwritten_nan_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("elements left unwritten where the result is NaN are Fail (values)") {
  std::string out = scratch("unwritten_nan");
  CliRun run = run_conformance("conformance_nanskip", "--filter 'tegula.map.*' --jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_nanskip:0");
  REQUIRE(recs.size() > 20);
  int failed = 0, passed = 0;
  for (const Json& r : recs) {
    if (field(r, "outcome") == "Pass" || field(r, "outcome") == "QualityWarning") {
      ++passed;
      continue;
    }
    CHECK_MESSAGE(field(r, "outcome") == "Fail", field(r, "name"));
    CHECK(field(r, "check") == "values");
    const Json* first = r.find("first_mismatch");
    REQUIRE(first);
    // The reference wrote a NaN there; the device left the sentinel.
    CHECK_MESSAGE(first->find("expected")->as_string().find("nan") != std::string::npos, first->dump(0));
    // The sentinel as the case's dtype holds it: -0.75 exactly, but for e2m1 (-1: a tie of
    // -0.5 and -1 to the even mantissa), e8m0 and ue4m3 (no negative values).
    std::string name = field(r, "name");
    bool inexact = name.find(".e2m1.") != std::string::npos || name.find(".e8m0.") != std::string::npos ||
                   name.find(".ue4m3.") != std::string::npos;
    if (!inexact) CHECK_MESSAGE(first->find("actual")->as_string().find("-0.75") == 0, first->dump(0));
    ++failed;
  }
  CHECK(failed > 0);
  CHECK(passed > 0);
}

}  // namespace catches_unwritten_nan_test
