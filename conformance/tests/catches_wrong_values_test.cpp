// A plugin that computes a wrong value fails every case it runs, on the value check, and
// the first mismatch is reported with its index, expected and actual values.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace catches_wrong_values_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("wrong results are Fail (values)") {
  std::string out = scratch("wrong_values");
  CliRun run = run_conformance("conformance_wrong", "--filter 'tegula.copy.global_shared.*,tegula.gemm.fma.f32_f32.*,tegula.map.add.*' "
                                                    "--jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_wrong:0");
  REQUIRE(recs.size() > 80);
  for (const Json& r : recs) {
    CHECK_MESSAGE(field(r, "outcome") == "Fail", field(r, "name"));
    CHECK(field(r, "check") == "values");
    CHECK(r.find("first_mismatch") != nullptr);
    CHECK(r.find("mismatches")->as_int() >= 1);
  }
}

}  // namespace catches_wrong_values_test
