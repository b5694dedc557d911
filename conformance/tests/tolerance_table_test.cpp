// The tolerance table: the built-in one parses, has a version and a stable hash, covers
// every function the suite checks in ulps for every float dtype; malformed tables are
// refused with the reason.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "conformance/Suite.h"
#include "conformance/Tolerances.h"
#include "core/Sha256.h"

namespace tolerance_table_test {

using namespace tegula;
using namespace tegula::conformance;

TEST_CASE("the built-in table parses and is hashed as written") {
  const Tolerances& t = Tolerances::builtin();
  CHECK(t.version() >= 1);
  CHECK(t.sha256() == sha256_hex(t.text()));
  CHECK(t.sha256().size() == 64);
}

TEST_CASE("every ulp-checked function of the suite has a limit for every float dtype") {
  auto target = builtin_target("host_cpu");
  REQUIRE(target.is_ok());
  std::set<std::string> functions;
  for (const CaseSpec& c : build_suite(*target))
    if (c.check == Check::Ulp) functions.insert(c.function);
  CHECK(functions.size() >= 8);
  for (const std::string& f : functions) {
    for (DType d : {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2}) {
      UlpLimit l = Tolerances::builtin().ulp(f, d);
      CAPTURE(f);
      CAPTURE(dtype_name(d));
      CHECK(l.tolerance >= l.quality);
    }
    CHECK(Tolerances::builtin().ulp(f, DType::F32).tolerance > 0);
  }
  CHECK(Tolerances::builtin().accumulate(DType::BF16, DType::F32).unit_roundoff > 0);
  CHECK(Tolerances::builtin().accumulate(DType::E4M3, DType::F32).unit_roundoff >
        Tolerances::builtin().accumulate(DType::BF16, DType::F32).unit_roundoff);
}

TEST_CASE("malformed tables are refused") {
  const char* bad[] = {
      "{}",
      R"({"schema": "tegula.conformance.tolerances.v1", "version": 0, "ulp": {}, "accumulate": {}})",
      R"({"schema": "tegula.conformance.tolerances.v1", "version": 1, "ulp": {"exp": {"f99": [1, 1]}}, "accumulate": {}})",
      R"({"schema": "tegula.conformance.tolerances.v1", "version": 1, "ulp": {"exp": {"f32": [1, 2]}}, "accumulate": {}})",
      R"({"schema": "tegula.conformance.tolerances.v1", "version": 1, "ulp": {}, "accumulate": {"*_f32": {"k_factor": 1}}})",
  };
  for (const char* text : bad) {
    CAPTURE(text);
    CHECK_FALSE(Tolerances::parse(text).is_ok());
  }
}

}  // namespace tolerance_table_test
