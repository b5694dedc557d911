// Integer and bool dtypes: round to nearest even, saturate, NaN becomes 0; bool is "!= 0".
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/DType.h"

namespace dtype_int_test {

using namespace tegula;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

int8_t store_i8(double x) {
  int8_t v;
  store_element(DType::I8, x, &v);
  return v;
}
uint8_t store_u8(double x) {
  uint8_t v;
  store_element(DType::U8, x, &v);
  return v;
}
int32_t store_i32(double x) {
  int32_t v;
  store_element(DType::I32, x, &v);
  return v;
}
uint8_t store_bool(double x) {
  uint8_t v;
  store_element(DType::Bool, x, &v);
  return v;
}

}  // namespace

TEST_CASE("ties round to even") {
  for (DType t : {DType::I8, DType::I32}) {
    CAPTURE(dtype_name(t));
    CHECK(round_to_dtype(t, 0.5) == 0.0);
    CHECK(round_to_dtype(t, 1.5) == 2.0);
    CHECK(round_to_dtype(t, 2.5) == 2.0);
    CHECK(round_to_dtype(t, 3.5) == 4.0);
    CHECK(round_to_dtype(t, -0.5) == 0.0);
    CHECK(round_to_dtype(t, -1.5) == -2.0);
    CHECK(round_to_dtype(t, -2.5) == -2.0);
    CHECK(round_to_dtype(t, -3.5) == -4.0);
    CHECK(round_to_dtype(t, 2.4999999999999996) == 2.0);
    CHECK(round_to_dtype(t, 2.5000000000000004) == 3.0);
    CHECK(round_to_dtype(t, -2.5000000000000004) == -3.0);
    CHECK(round_to_dtype(t, 0.49999999999999994) == 0.0);
  }
  CHECK(store_u8(2.5) == 2);
  CHECK(store_u8(3.5) == 4);
  CHECK(store_u8(254.5) == 254);
  CHECK(store_i8(126.5) == 126);
  CHECK(store_i8(-127.5) == -128);
  CHECK(store_i32(1e6 + 0.5) == 1000000);
  CHECK(store_i32(-(1e6 + 1.5)) == -1000002);
}

TEST_CASE("results are never negative zero") {
  CHECK_FALSE(std::signbit(round_to_dtype(DType::I8, -0.4)));
  CHECK_FALSE(std::signbit(round_to_dtype(DType::I32, -0.0)));
  CHECK_FALSE(std::signbit(round_to_dtype(DType::U8, -0.5)));
}

TEST_CASE("i8 saturates") {
  CHECK(store_i8(127.0) == 127);
  CHECK(store_i8(127.4) == 127);
  CHECK(store_i8(127.5) == 127);  // rounds to 128, saturates
  CHECK(store_i8(1000.0) == 127);
  CHECK(store_i8(-128.0) == -128);
  CHECK(store_i8(-128.5) == -128);
  CHECK(store_i8(-1e300) == -128);
  CHECK(store_i8(kInf) == 127);
  CHECK(store_i8(-kInf) == -128);
  CHECK(store_i8(kNaN) == 0);
  CHECK(store_i8(-kNaN) == 0);
}

TEST_CASE("u8 saturates") {
  CHECK(store_u8(255.0) == 255);
  CHECK(store_u8(255.5) == 255);
  CHECK(store_u8(256.0) == 255);
  CHECK(store_u8(-1.0) == 0);
  CHECK(store_u8(-0.5) == 0);
  CHECK(store_u8(-0.6) == 0);
  CHECK(store_u8(kInf) == 255);
  CHECK(store_u8(-kInf) == 0);
  CHECK(store_u8(kNaN) == 0);
}

TEST_CASE("i32 saturates at its exact limits") {
  CHECK(store_i32(2147483647.0) == INT32_MAX);
  CHECK(store_i32(2147483647.4) == INT32_MAX);
  CHECK(store_i32(2147483647.5) == INT32_MAX);  // ties to 2^31 (even), saturates
  CHECK(store_i32(2147483648.0) == INT32_MAX);
  CHECK(store_i32(1e300) == INT32_MAX);
  CHECK(store_i32(-2147483648.0) == INT32_MIN);
  CHECK(store_i32(-2147483648.5) == INT32_MIN);
  CHECK(store_i32(-2147483649.0) == INT32_MIN);
  CHECK(store_i32(-kInf) == INT32_MIN);
  CHECK(store_i32(kInf) == INT32_MAX);
  CHECK(store_i32(kNaN) == 0);
  CHECK(store_i32(2147483646.5) == 2147483646);
  CHECK(store_i32(-2147483646.5) == -2147483646);
}

TEST_CASE("integers load exactly") {
  int8_t i8 = -128;
  uint8_t u8 = 255;
  int32_t i32 = INT32_MIN;
  CHECK(load_element(DType::I8, &i8) == -128.0);
  CHECK(load_element(DType::U8, &u8) == 255.0);
  CHECK(load_element(DType::I32, &i32) == -2147483648.0);
  for (int v = -128; v <= 127; ++v) CHECK(round_to_dtype(DType::I8, double(v)) == double(v));
  for (int v = 0; v <= 255; ++v) CHECK(round_to_dtype(DType::U8, double(v)) == double(v));
}

TEST_CASE("small values round to the nearest integer") {
  for (int i = -300; i <= 300; ++i) {
    double x = i / 4.0;
    double want = std::nearbyint(x);  // default rounding mode: ties to even
    CHECK(round_to_dtype(DType::I32, x) == want);
    CHECK(round_to_dtype(DType::I8, x) == std::fmin(127.0, std::fmax(-128.0, want)));
    CHECK(round_to_dtype(DType::U8, x) == std::fmin(255.0, std::fmax(0.0, want)));
  }
}

TEST_CASE("bool is non-zero, NaN included") {
  CHECK(store_bool(0.0) == 0);
  CHECK(store_bool(-0.0) == 0);
  CHECK(store_bool(1.0) == 1);
  CHECK(store_bool(-1.0) == 1);
  CHECK(store_bool(0.25) == 1);
  CHECK(store_bool(std::numeric_limits<double>::denorm_min()) == 1);
  CHECK(store_bool(kInf) == 1);
  CHECK(store_bool(-kInf) == 1);
  CHECK(store_bool(kNaN) == 1);
  CHECK(round_to_dtype(DType::Bool, 42.0) == 1.0);
  CHECK(round_to_dtype(DType::Bool, 0.0) == 0.0);
  // Any non-zero byte reads back as true.
  uint8_t b = 0x80;
  CHECK(load_element(DType::Bool, &b) == 1.0);
  b = 0;
  CHECK(load_element(DType::Bool, &b) == 0.0);
}

}  // namespace dtype_int_test
