// `verify` holds a passed Ulp case to the tolerance table's limit for the case's own output
// dtype, not to the largest limit of any dtype: an f16 exp (1 ulp) that passed with 2 ulps
// is rejected although f32 exp allows 3.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/Report.h"
#include "conformance/Verify.h"
#include "conformance/tests/TestSupport.h"

namespace verify_ulp_limit_per_dtype_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

TEST_CASE("a Pass above its own dtype's ulp limit is rejected") {
  std::string out = scratch("verify_ulp_limit_per_dtype");
  CliRun run = run_conformance("reference", "--device reference:0 --filter 'tegula.map.exp.f16.*' --quiet --out '" + out + "/r'");
  INFO(run.output);
  REQUIRE(run.status == 0);
  Json report = load_report(out + "/r");
  Json& device = const_cast<Json*>(report.find("devices"))->items()[0];
  bool edited = false;
  for (Json& r : const_cast<Json*>(device.find("records"))->items()) {
    if (field(r, "outcome") != "Pass") continue;
    r.set("max_ulp_error", 2.0);
    edited = true;
    break;
  }
  REQUIRE(edited);
  // Re-seal as a careful forger would: derived fields, summary, integrity hash.
  Result<std::vector<Record>> recs = device_records(device);
  REQUIRE(recs.is_ok());
  derive_device(device, *recs, {});
  report.set("summary", derive_summary(report));
  Json integrity = Json::object();
  integrity.set("sha256", integrity_hash(report));
  report.set("integrity", integrity);
  REQUIRE(make_dirs(out + "/edited").is_ok());
  REQUIRE(write_file_atomic(out + "/edited/report.json", report.dump(1)).is_ok());
  VerifyOutcome v = verify_report(out + "/edited/report.json");
  bool rejected = false;
  for (const std::string& e : v.errors) rejected = rejected || e.find("above the tolerance table's limit") != std::string::npos;
  CHECK(rejected);
}

}  // namespace verify_ulp_limit_per_dtype_test
