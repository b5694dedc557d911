// A plugin that writes one byte past the end of an output tensor is caught by the guard
// region around every buffer, on every case.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace catches_out_of_bounds_write_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("an out-of-bounds write is Fail (guard)") {
  std::string out = scratch("out_of_bounds");
  CliRun run = run_conformance("conformance_oob", "--filter 'tegula.copy.*.f16.*,tegula.fill.*.i8.*' --jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_oob:0");
  REQUIRE(recs.size() > 20);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "Fail", field(r, "name"));
    CHECK(field(r, "check") == "guard");
    CHECK(field(r, "detail").find("past the end of tensor") != std::string::npos);
  }
}

}  // namespace catches_out_of_bounds_write_test
