// What a device's target description does not claim is NotSupported, never run; what it
// claims is run. The narrow test plugin is the reference device without bf16, e4m3, e5m2.
#include <doctest/doctest.h>

#include <string>

#include "conformance/tests/TestSupport.h"

namespace not_supported_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("unclaimed dtypes are NotSupported and claimed ones run") {
  std::string out = scratch("not_supported");
  CliRun run = run_conformance("conformance_narrow", "--filter 'tegula.copy.global_shared.*,tegula.copy.convert.*' --jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 0);
  int unsupported = 0, passed = 0;
  for (const Json& r : records(load_report(out), "conformance_narrow:0")) {
    std::string name = field(r, "name");
    bool narrow = name.find("bf16") != std::string::npos || name.find("e4m3") != std::string::npos ||
                  name.find("e5m2") != std::string::npos;
    CHECK_MESSAGE(field(r, "outcome") == (narrow ? "NotSupported" : "Pass"), name);
    if (narrow) {
      ++unsupported;
      CHECK(field(r, "detail").find("does not claim") != std::string::npos);
    } else {
      ++passed;
    }
  }
  CHECK(unsupported > 30);
  CHECK(passed > 30);
}

}  // namespace not_supported_test
