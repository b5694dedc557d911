// The value sets: exact lattices hold only values every dtype represents exactly (so sums
// of products are exact whatever the order), special values include what they promise,
// and the same seed gives the same bytes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "conformance/Inputs.h"

namespace input_values_test {

using namespace tegula;
using namespace tegula::conformance;

namespace {

std::vector<double> decode(DType d, const std::vector<uint8_t>& bytes) {
  std::vector<double> out;
  for (size_t i = 0; i < bytes.size(); i += dtype_size(d)) out.push_back(load_element(d, bytes.data() + i));
  return out;
}

}  // namespace

TEST_CASE("lattice values are exact, small and on a half-integer grid") {
  for (DType d : {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2, DType::I8, DType::U8, DType::I32}) {
    for (Values v : {Values::Lattice, Values::SmallLattice}) {
      CAPTURE(dtype_name(d));
      for (double x : decode(d, make_values(d, v, 512, 7, 0))) {
        CHECK(std::fabs(x) <= 8);
        CHECK(x * 2 == std::floor(x * 2));
        CHECK(round_to_dtype(d, x) == x);
      }
    }
  }
}

TEST_CASE("special values include infinities, NaN, -0, max and subnormals") {
  std::vector<double> s = decode(DType::F32, make_values(DType::F32, Values::Special, 3000, 1, 0));
  auto has = [&](auto pred) { return std::any_of(s.begin(), s.end(), pred); };
  CHECK(has([](double x) { return std::isinf(x) && x > 0; }));
  CHECK(has([](double x) { return std::isinf(x) && x < 0; }));
  CHECK(has([](double x) { return std::isnan(x); }));
  CHECK(has([](double x) { return x == 0 && std::signbit(x); }));
  CHECK(has([](double x) { return x == dtype_max(DType::F32); }));
  CHECK(has([](double x) { return x == min_subnormal(DType::F32); }));
  CHECK(has([](double x) { return x == 65504.0; }));  // f16's max, for conversions
}

TEST_CASE("signed zeros are +0 and -0 only, both of them, in every float dtype") {
  for (DType d : {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2}) {
    std::vector<double> z = decode(d, make_values(d, Values::SignedZeros, 256, 3, 0));
    CHECK(std::all_of(z.begin(), z.end(), [](double x) { return x == 0; }));
    CHECK(std::any_of(z.begin(), z.end(), [](double x) { return std::signbit(x); }));
    CHECK(std::any_of(z.begin(), z.end(), [](double x) { return !std::signbit(x); }));
  }
}

TEST_CASE("the same seed gives the same values; another seed others") {
  CHECK(make_values(DType::BF16, Values::Random, 100, 5, 0) == make_values(DType::BF16, Values::Random, 100, 5, 0));
  CHECK(make_values(DType::BF16, Values::Random, 100, 5, 0) != make_values(DType::BF16, Values::Random, 100, 6, 0));
  CHECK(case_seed(1234, "tegula.a", 0) != case_seed(1234, "tegula.b", 0));
  CHECK(case_seed(1234, "tegula.a", 0) != case_seed(1234, "tegula.a", 1));
}

TEST_CASE("indices stay below their limit and tf32 bit patterns are tf32") {
  for (double x : decode(DType::I32, make_values(DType::I32, Values::Indices, 1000, 3, 0, 17))) CHECK((x >= 0 && x < 17));
  std::vector<uint8_t> bits = make_values(DType::TF32, Values::Bits, 100, 3, 0);
  for (size_t i = 0; i < bits.size(); i += 4) CHECK((bits[i] | (bits[i + 1] & 0x1f)) == 0);
}

TEST_CASE("segment offsets start at 0, never decrease, stay within their limit and include empty and one-long segments") {
  for (int64_t count : {2, 5, 9, 33}) {
    CAPTURE(count);
    std::vector<double> cu = decode(DType::I32, make_values(DType::I32, Values::Offsets, count, 7, 0, 40));
    REQUIRE(cu.size() == size_t(count));
    CHECK(cu[0] == 0);
    bool empty = false, one = false;
    for (size_t i = 1; i < cu.size(); ++i) {
      CHECK(cu[i] >= cu[i - 1]);
      CHECK(cu[i] <= 40);
      empty = empty || cu[i] == cu[i - 1];
      one = one || cu[i] == cu[i - 1] + 1;
    }
    CHECK(empty);
    if (count > 2) CHECK(one);
  }
}

}  // namespace input_values_test
