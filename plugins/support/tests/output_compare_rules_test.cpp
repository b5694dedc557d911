// The comparison every backend's tests share: NaN matches NaN whatever its payload; a zero
// tolerance asks for the reference's bits (so -0 is not +0); a non-zero one allows
// abs + rel * |expected| and -0 for +0; infinities match only themselves; the mismatch count
// is exact and the first one is described by index.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "plugins/support/testing/OutputCompare.h"

namespace output_compare_rules_test {

using namespace tegula;
using namespace tegula::plugin_testing;

namespace {

examples::HostTensor tensor(DType d, const std::vector<double>& values) {
  examples::HostTensor t;
  t.dtype = d;
  t.shape = {int64_t(values.size())};
  t.bytes.resize(values.size() * dtype_size(d));
  for (size_t i = 0; i < values.size(); ++i) store_element(d, values[i], t.bytes.data() + i * dtype_size(d));
  return t;
}

int64_t bad(DType d, double got, double want, Tolerance tol) {
  return compare_tensor("T", tensor(d, {got}), tensor(d, {want}), tol).mismatches;
}

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST_CASE("NaN matches NaN, also with another payload, and nothing else") {
  examples::HostTensor a = tensor(DType::F32, {kNaN}), b = a;
  b.bytes[0] ^= 1;  // another NaN
  CHECK(compare_tensor("T", a, b, Tolerance{}).mismatches == 0);
  CHECK(compare_tensor("T", a, b, Tolerance{.abs = 1, .rel = 1}).mismatches == 0);
  CHECK(bad(DType::F32, kNaN, 1.0, Tolerance{.abs = 1e30, .rel = 0}) == 1);
  CHECK(bad(DType::F32, 1.0, kNaN, Tolerance{.abs = 1e30, .rel = 0}) == 1);
  CHECK(bad(DType::BF16, kNaN, kNaN, Tolerance{}) == 0);
}

TEST_CASE("exact means the same bits; a tolerance forgives the sign of zero") {
  for (DType d : {DType::F64, DType::F32, DType::F16, DType::BF16, DType::E4M3}) {
    CAPTURE(dtype_name(d));
    CHECK(bad(d, -0.0, 0.0, Tolerance{}) == 1);
    CHECK(bad(d, 0.0, 0.0, Tolerance{}) == 0);
    CHECK(bad(d, -0.0, 0.0, same_value()) == 0);
    CHECK(bad(d, 0.5, 0.5, Tolerance{}) == 0);
  }
  CHECK(bad(DType::F32, 1.0, std::nextafter(1.0f, 2.0f), Tolerance{}) == 1);
  CHECK(bad(DType::I32, 7, 7, Tolerance{}) == 0);
  CHECK(bad(DType::I32, 7, 8, Tolerance{}) == 1);
}

TEST_CASE("a tolerance is abs + rel * |expected|, inclusive") {
  CHECK(bad(DType::F64, 1.5, 1.0, Tolerance{.abs = 0.5, .rel = 0}) == 0);
  CHECK(bad(DType::F64, 1.5000001, 1.0, Tolerance{.abs = 0.5, .rel = 0}) == 1);
  CHECK(bad(DType::F64, 110, 100, Tolerance{.abs = 0, .rel = 0.1}) == 0);
  CHECK(bad(DType::F64, 111, 100, Tolerance{.abs = 0, .rel = 0.1}) == 1);
  CHECK(bad(DType::F64, -111, -100, Tolerance{.abs = 1, .rel = 0.1}) == 0);
  CHECK(bad(DType::I32, 3, 2, default_tolerance(DType::I32)) == 1);
  CHECK(ulps(DType::F32, 2) == std::ldexp(1.0, -22));
  CHECK(ulps(DType::I8, 2) == 0);
  Tolerance u = ulp_tolerance(DType::BF16, 1, 1e-5);
  CHECK(u.abs == 1e-5);
  CHECK(u.rel == std::ldexp(1.0, -7));
}

TEST_CASE("an infinity matches only itself, whatever the tolerance") {
  CHECK(bad(DType::F32, kInf, kInf, Tolerance{}) == 0);
  CHECK(bad(DType::F32, kInf, kInf, Tolerance{.abs = 1, .rel = 1}) == 0);
  CHECK(bad(DType::F32, 1e30, kInf, Tolerance{.abs = 0, .rel = 1}) == 1);
  CHECK(bad(DType::F32, kInf, 1e30, Tolerance{.abs = 0, .rel = 1}) == 1);
  CHECK(bad(DType::F32, -kInf, kInf, Tolerance{.abs = 1e38, .rel = 1}) == 1);
}

TEST_CASE("the count is exact and the first mismatch is described") {
  examples::HostTensor got = tensor(DType::F32, {1, 2, 3, 4, 5}), want = tensor(DType::F32, {1, 2, 3.5, 4, 6});
  examples::OutputComparison c = compare_tensor("Y", got, want, Tolerance{});
  CHECK(c.elements == 5);
  CHECK(c.mismatches == 2);
  CHECK(c.first_mismatch == "Y[2]: got 3, expected 3.5");
  CHECK(c.max_abs_error == 1.0);
  examples::HostTensor shorter = tensor(DType::F32, {1, 2});
  CHECK(compare_tensor("Y", shorter, want, Tolerance{}).mismatches == 2);
}

TEST_CASE("compare_launch names every wrong tensor: outputs that differ and inputs written") {
  auto k = ir::Kernel{};
  k.name = "k";
  for (const char* name : {"X", "Y"}) {
    ir::Param p;
    p.name = name;
    p.is_tensor = true;
    p.dtype = DType::F32;
    k.params.push_back(p);
  }
  examples::LaunchData before;
  before.tensors = {tensor(DType::F32, {1, 2}), tensor(DType::F32, {kNaN, kNaN})};
  before.scalars = {0, 0};
  before.outputs = {1};
  examples::LaunchData want = before, got = before;
  want.tensors[1] = tensor(DType::F32, {2, 4});
  got.tensors[1] = tensor(DType::F32, {2, 4});
  CHECK(compare_launch(k, before, got, want, Tolerance{}).is_ok());
  got.tensors[0] = tensor(DType::F32, {1, 3});
  got.tensors[1] = tensor(DType::F32, {2, 5});
  Status st = compare_launch(k, before, got, want, Tolerance{});
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.message() == "k: input 'X' was modified by the kernel; Y: 1 of 2 elements differ; first Y[1]: got 5, expected 4");
  CHECK(compare_launch(k, before, got, want, [](DType) { return Tolerance{.abs = 1, .rel = 0}; }).message() ==
        "k: input 'X' was modified by the kernel");
}

}  // namespace output_compare_rules_test
