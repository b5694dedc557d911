// A case that forces a matrix instruction is Fail (instruction) when the plugin cannot show
// the compiled code: the instruction could not be inspected, so nothing shows it was used.
// The opaque test plugin compiles offline for sm_80 but provides no executable_describe.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace uninspectable_instruction_fails_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("a forced instruction whose code cannot be described is Fail (instruction)") {
  std::string out = scratch("uninspectable_instruction");
  CliRun run = run_conformance("conformance_opaque",
                               "--device conformance_opaque@sm_80 --filter 'tegula.gemm.mma_sync.*' --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_opaque@sm_80");
  REQUIRE(recs.size() > 10);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "Fail", field(r, "name"));
    CHECK(field(r, "check") == "instruction");
    CHECK(field(r, "detail").find("could not be inspected") != std::string::npos);
  }
  CHECK(run_conformance("conformance_opaque", "verify '" + out + "'").status == 0);
}

}  // namespace uninspectable_instruction_fails_test
