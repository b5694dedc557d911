// The NotSupported reason names every dtype a case needs and the target does not claim,
// each once: tf32 does not hide f32 (its name is inside "tf32"), a repeated dtype is named once.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/cases/Generator.h"

namespace missing_dtypes_named_test {

using namespace tegula;
using namespace tegula::conformance;

TEST_CASE("needs names f32 after tf32, and a repeated dtype once") {
  TargetDescription t;
  t.name = "f64only";
  t.dtypes = {DType::F64};
  std::vector<CaseSpec> out;
  Generator g(t, out);
  CHECK(g.needs({DType::TF32, DType::F32}) == "target 'f64only' does not claim tf32, f32");
  CHECK(g.needs({DType::F16, DType::F16, DType::F64}) == "target 'f64only' does not claim f16");
  CHECK(g.needs({DType::F64}).empty());
}

}  // namespace missing_dtypes_named_test
