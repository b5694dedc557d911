// A plugin that crashes in launch (SIGSEGV) takes only its worker down: each case is a
// Crash naming the signal, the parent starts a new worker for the next case, and the run
// finishes with a report.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace catches_crash_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("a crashing kernel is Crash, and the run continues") {
  std::string out = scratch("crash");
  CliRun run = run_conformance("conformance_crash", "--filter 'tegula.copy.global_shared.f32.*,-*.misaligned' --jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_crash:0");
  REQUIRE(recs.size() == 6);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "Crash", field(r, "name"));
    CHECK(field(r, "detail").find("signal 11") != std::string::npos);
  }
}

}  // namespace catches_crash_test
