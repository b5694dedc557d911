// A plugin that modifies a tensor the kernel only reads fails on the input check.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace catches_changed_input_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("a changed input is Fail (input)") {
  std::string out = scratch("changed_input");
  CliRun run = run_conformance("conformance_input", "--filter 'tegula.copy.global_fragment.*,tegula.reduce.max.*' --jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_input:0");
  REQUIRE(recs.size() > 40);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "Fail", field(r, "name"));
    CHECK(field(r, "check") == "input");
    CHECK(field(r, "detail").find("input tensor X was changed at") != std::string::npos);
  }
}

}  // namespace catches_changed_input_test
