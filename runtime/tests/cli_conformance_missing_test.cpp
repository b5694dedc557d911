// Misuse: `tegula conformance` from a folder without tegula-conformance beside it (a tegula
// copied elsewhere, or an install that left the suite out) says what it looked for.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace cli_conformance_missing_test {

using namespace tegula::testing;

TEST_CASE("misuse: tegula conformance with no tegula-conformance beside tegula") {
  std::string dir = scratch_dir("cli_conformance_missing");
  std::string out;
  REQUIRE(run_command("cp '" + tegula_exe() + "' '" + dir + "/tegula'", &out) == 0);
  int rc = run_command("'" + dir + "/tegula' conformance list --target sm_90a", &out);
  CHECK(rc == 127);
  CHECK(out.find("tegula conformance: cannot run " + dir + "/tegula-conformance: No such file or directory") !=
        std::string::npos);
}

}  // namespace cli_conformance_missing_test
