// What a device's target description does not claim is NotSupported, never run; what it
// claims is run. The narrow test plugin is the reference device without bf16, e4m3, e5m2.
#include <doctest/doctest.h>

#include <string>

#include "conformance/tests/TestSupport.h"

namespace not_supported_test {

using namespace tegula;
using namespace tegula::conformance::testing;

namespace {

/// Whether a case name names dtype `d` as a whole word (e4m3, not e4m3fnuz or ue4m3).
bool names_dtype(const std::string& name, const std::string& d) {
  auto boundary = [](char c) { return c == '.' || c == '_'; };
  for (size_t at = name.find(d); at != std::string::npos; at = name.find(d, at + 1)) {
    bool before = at > 0 && boundary(name[at - 1]);
    bool after = at + d.size() == name.size() || boundary(name[at + d.size()]);
    if (before && after) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("unclaimed dtypes are NotSupported and claimed ones run") {
  std::string out = scratch("not_supported");
  CliRun run = run_conformance("conformance_narrow", "--filter 'tegula.copy.global_shared.*,tegula.copy.convert.*' --jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 0);
  int unsupported = 0, passed = 0;
  for (const Json& r : records(load_report(out), "conformance_narrow:0")) {
    std::string name = field(r, "name");
    bool narrow = names_dtype(name, "bf16") || names_dtype(name, "e4m3") || names_dtype(name, "e5m2");
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
