// A plugin whose second run of a case differs from its first (here: every second launch
// is wrong) fails on the determinism check, although the first run was right.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace catches_nondeterminism_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("nondeterministic results are Fail (nondeterminism)") {
  std::string out = scratch("nondeterminism");
  CliRun run = run_conformance("conformance_flaky", "--filter 'tegula.copy.shared_fragment.*,tegula.atomic_add.*' --jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_flaky:0");
  REQUIRE(recs.size() > 40);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "Fail", field(r, "name"));
    CHECK(field(r, "check") == "nondeterminism");
    CHECK(field(r, "detail").find("two runs from the same inputs differ") != std::string::npos);
  }
}

}  // namespace catches_nondeterminism_test
