// The comparison rules of Compare.h, element by element: equal bits match; poison the
// reference left must stay; NaN matches any NaN and nothing else; -0 and +0 differ in exact
// cases; ulp and accumulation limits come from the tolerance table, with QualityWarning
// between the quality bound and the tolerance.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "conformance/Compare.h"
#include "conformance/Executor.h"
#include "conformance/Inputs.h"

namespace compare_rules_test {

using namespace tegula;
using namespace tegula::conformance;

namespace {

std::vector<uint8_t> encode(DType d, std::initializer_list<double> values) {
  std::vector<uint8_t> out(values.size() * dtype_size(d));
  size_t i = 0;
  for (double v : values) store_element(d, v, out.data() + dtype_size(d) * i++);
  return out;
}

Comparison compare(DType d, const std::vector<uint8_t>& expected, const std::vector<uint8_t>& actual, const CaseSpec& spec,
                   const std::vector<uint8_t>* magnitude = nullptr) {
  TensorView t{"Y", d, {int64_t(expected.size() / dtype_size(d))}, &expected, &actual, magnitude};
  return compare_tensor(t, spec, Tolerances::builtin());
}

}  // namespace

TEST_CASE("exact cases: equal bits, NaN for NaN, nothing else") {
  CaseSpec exact;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(compare(DType::F32, encode(DType::F32, {1.5, nan}), encode(DType::F32, {1.5, -nan}), exact).mismatches == 0);
  CHECK(compare(DType::F32, encode(DType::F32, {0.0}), encode(DType::F32, {-0.0}), exact).mismatches == 1);
  CHECK(compare(DType::F32, encode(DType::F32, {1.0}), encode(DType::F32, {nan}), exact).mismatches == 1);
  CHECK(compare(DType::F16, encode(DType::F16, {1.0}), encode(DType::F16, {1.0009765625}), exact).mismatches == 1);
  Comparison c = compare(DType::I8, encode(DType::I8, {3, 4}), encode(DType::I8, {3, 5}), exact);
  CHECK(c.mismatches == 1);
  REQUIRE(c.first);
  CHECK(c.first->index == std::vector<int64_t>{1});
}

TEST_CASE("where the reference left poison, the device must leave it too") {
  CaseSpec exact;
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::E5M2, DType::E4M3, DType::I32, DType::Bool}) {
    std::vector<uint8_t> p = poison(d, 2);
    std::vector<uint8_t> other = p;
    store_element(d, std::numeric_limits<double>::quiet_NaN(), other.data());  // a NaN, but not the poison
    if (d == DType::I32 || d == DType::Bool || d == DType::E4M3) store_element(d, 1, other.data());
    CAPTURE(dtype_name(d));
    CHECK(compare(d, p, p, exact).mismatches == 0);
    Comparison c = compare(d, p, other, exact);
    CHECK(c.mismatches == 1);
    REQUIRE(c.first);
    CHECK(c.first->expected.find("untouched") == 0);
  }
}

TEST_CASE("float poison is a NaN no store produces") {
  for (DType d : {DType::F64, DType::F32, DType::F16, DType::BF16, DType::E5M2}) {
    std::vector<uint8_t> p = poison_element(d);
    CHECK(std::isnan(load_element(d, p.data())));
    std::vector<uint8_t> canonical(dtype_size(d));
    store_element(d, std::numeric_limits<double>::quiet_NaN(), canonical.data());
    CHECK(p != canonical);
  }
}

TEST_CASE("ulp limits and the quality bound") {
  CaseSpec c;
  c.check = Check::Ulp;
  c.function = "exp";  // f32: tolerance 3 ulp, quality 1 ulp
  double one = 1.0, ulp = ulp_of(DType::F32, one);
  Comparison within = compare(DType::F32, encode(DType::F32, {one}), encode(DType::F32, {one + ulp}), c);
  CHECK(within.mismatches == 0);
  CHECK(within.quality_misses == 0);
  Comparison quality = compare(DType::F32, encode(DType::F32, {one}), encode(DType::F32, {one + 2 * ulp}), c);
  CHECK(quality.mismatches == 0);
  CHECK(quality.quality_misses == 1);
  CHECK(quality.max_ulp == doctest::Approx(2));
  CHECK(compare(DType::F32, encode(DType::F32, {one}), encode(DType::F32, {one + 4 * ulp}), c).mismatches == 1);
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(compare(DType::F32, encode(DType::F32, {inf}), encode(DType::F32, {inf}), c).mismatches == 0);
  CHECK(compare(DType::F32, encode(DType::F32, {inf}), encode(DType::F32, {-inf}), c).mismatches == 1);
}

TEST_CASE("the accumulation bound scales with K and the terms' magnitude") {
  CaseSpec c;
  c.check = Check::Accumulate;
  c.operand = DType::F32;
  c.accumulator = DType::F32;
  std::vector<uint8_t> mag = encode(DType::F32, {100.0});
  double u = std::ldexp(1.0, -24);
  c.depth = 64;
  // Allowed: 64 * u * 100 + one ulp at 1.0.
  double allowed = 64 * u * 100 + ulp_of(DType::F32, 1.0);
  CHECK(compare(DType::F32, encode(DType::F32, {1.0}), encode(DType::F32, {1.0 + 0.9 * allowed}), c, &mag).mismatches == 0);
  CHECK(compare(DType::F32, encode(DType::F32, {1.0}), encode(DType::F32, {1.0 + 1.5 * allowed}), c, &mag).mismatches == 1);
  c.depth = 4096;
  CHECK(compare(DType::F32, encode(DType::F32, {1.0}), encode(DType::F32, {1.0 + 1.5 * allowed}), c, &mag).mismatches == 0);
}

TEST_CASE("mnemonic patterns: capitals stand for the ranged dimension") {
  CHECK(contains_mnemonic("x wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 y", "wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16"));
  CHECK_FALSE(contains_mnemonic("wgmma.mma_async.sync.aligned.m64nk16.f32", "wgmma.mma_async.sync.aligned.m64nNk16.f32"));
  CHECK(contains_mnemonic("mma.sync.aligned.m16n8k16.row.col", "mma.sync.aligned.m16n8k16.row.col"));
  CHECK_FALSE(contains_mnemonic("fma.rn.f32", "mma.sync.aligned.m16n8k16"));
  // Uppercase letters outside a ranged dimension are literal.
  CHECK(contains_mnemonic("%12 = OpCooperativeMatrixMulAddKHR %9 %10 %11", "OpCooperativeMatrixMulAddKHR"));
  CHECK_FALSE(contains_mnemonic("OpCooperativeMatrixLoadKHR", "OpCooperativeMatrixMulAddKHR"));
}

}  // namespace compare_rules_test
