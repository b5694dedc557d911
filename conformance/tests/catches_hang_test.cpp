// A plugin whose launch never returns is killed by the watchdog: each case is a Timeout,
// and the run goes on to the next case with a fresh worker.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace catches_hang_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("a hanging kernel is Timeout, and the run continues") {
  std::string out = scratch("hang");
  CliRun run = run_conformance("conformance_hang", "--filter 'tegula.copy.global_shared.f32.*,-*.misaligned' --timeout 1 --jobs 3 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_hang:0");
  REQUIRE(recs.size() == 6);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "Timeout", field(r, "name"));
    CHECK(field(r, "detail").find("killed") != std::string::npos);
  }
}

}  // namespace catches_hang_test
