// DType names, parsing, sizes and classification.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>

#include "core/DType.h"

namespace dtype_names_test {

using namespace tegula;

namespace {

const DType kAll[] = {DType::F64,      DType::F32,      DType::TF32, DType::F16,  DType::BF16, DType::E4M3,
                      DType::E5M2,     DType::I8,       DType::U8,   DType::I32,  DType::Bool, DType::E4M3FNUZ,
                      DType::E5M2FNUZ, DType::E2M3,     DType::E3M2, DType::E2M1, DType::E8M0, DType::UE4M3};

}  // namespace

TEST_CASE("the list of dtypes is complete") {
  CHECK(sizeof(kAll) / sizeof(kAll[0]) == size_t(kNumDTypes));
  std::set<int> seen;
  for (DType t : kAll) seen.insert(int(t));
  CHECK(seen.size() == size_t(kNumDTypes));
  CHECK(*seen.rbegin() == kNumDTypes - 1);
}

TEST_CASE("names are the documented ones") {
  CHECK(std::string(dtype_name(DType::F64)) == "f64");
  CHECK(std::string(dtype_name(DType::F32)) == "f32");
  CHECK(std::string(dtype_name(DType::TF32)) == "tf32");
  CHECK(std::string(dtype_name(DType::F16)) == "f16");
  CHECK(std::string(dtype_name(DType::BF16)) == "bf16");
  CHECK(std::string(dtype_name(DType::E4M3)) == "e4m3");
  CHECK(std::string(dtype_name(DType::E5M2)) == "e5m2");
  CHECK(std::string(dtype_name(DType::I8)) == "i8");
  CHECK(std::string(dtype_name(DType::U8)) == "u8");
  CHECK(std::string(dtype_name(DType::I32)) == "i32");
  CHECK(std::string(dtype_name(DType::Bool)) == "bool");
  CHECK(std::string(dtype_name(DType::E4M3FNUZ)) == "e4m3fnuz");
  CHECK(std::string(dtype_name(DType::E5M2FNUZ)) == "e5m2fnuz");
  CHECK(std::string(dtype_name(DType::E2M3)) == "e2m3");
  CHECK(std::string(dtype_name(DType::E3M2)) == "e3m2");
  CHECK(std::string(dtype_name(DType::E2M1)) == "e2m1");
  CHECK(std::string(dtype_name(DType::E8M0)) == "e8m0");
  CHECK(std::string(dtype_name(DType::UE4M3)) == "ue4m3");
}

TEST_CASE("parse_dtype round-trips every name") {
  std::set<std::string> names;
  for (DType t : kAll) {
    std::optional<DType> back = parse_dtype(dtype_name(t));
    REQUIRE(back.has_value());
    CHECK(*back == t);
    names.insert(dtype_name(t));
  }
  CHECK(names.size() == size_t(kNumDTypes));
}

TEST_CASE("unknown names are rejected") {
  const char* bad[] = {"",     "F32",  "float", "f8",    "fp16", "bfloat16", "i64",
                       "u32",  " f32", "f32 ",  "f 32",  "e4m3fn", "boolean",
                       "int8", "tf",   "f16x",  "e5m2 ", "I8"};
  for (const char* name : bad) CHECK_FALSE(parse_dtype(name).has_value());
  // A string_view with an embedded NUL is not "f32".
  CHECK_FALSE(parse_dtype(std::string_view("f32\0", 4)).has_value());
}

TEST_CASE("sizes") {
  CHECK(dtype_size(DType::F64) == 8);
  CHECK(dtype_size(DType::F32) == 4);
  CHECK(dtype_size(DType::TF32) == 4);
  CHECK(dtype_size(DType::F16) == 2);
  CHECK(dtype_size(DType::BF16) == 2);
  CHECK(dtype_size(DType::E4M3) == 1);
  CHECK(dtype_size(DType::E5M2) == 1);
  CHECK(dtype_size(DType::I8) == 1);
  CHECK(dtype_size(DType::U8) == 1);
  CHECK(dtype_size(DType::I32) == 4);
  CHECK(dtype_size(DType::Bool) == 1);
}

TEST_CASE("float and int classification") {
  for (DType t : kAll) {
    bool is_int = t == DType::I8 || t == DType::U8 || t == DType::I32;
    bool is_float = !is_int && t != DType::Bool;
    // Every float but f64 and f32 is narrow: described by a FloatFormat.
    CHECK((float_format(t) != nullptr) == (is_float && t != DType::F64 && t != DType::F32));
    CHECK(dtype_is_float(t) == is_float);
    CHECK(dtype_is_int(t) == is_int);
  }
  CHECK_FALSE(dtype_is_float(DType::Bool));
  CHECK_FALSE(dtype_is_int(DType::Bool));
}

TEST_CASE("max and lowest") {
  CHECK(dtype_max(DType::F64) == 1.7976931348623157e308);
  CHECK(dtype_max(DType::F32) == 3.4028234663852886e38);
  CHECK(dtype_max(DType::TF32) == std::ldexp(2.0 - std::ldexp(1.0, -10), 127));
  CHECK(dtype_max(DType::F16) == 65504.0);
  CHECK(dtype_max(DType::BF16) == std::ldexp(2.0 - std::ldexp(1.0, -7), 127));
  CHECK(dtype_max(DType::E4M3) == 448.0);
  CHECK(dtype_max(DType::E5M2) == 57344.0);
  CHECK(dtype_max(DType::I8) == 127.0);
  CHECK(dtype_max(DType::U8) == 255.0);
  CHECK(dtype_max(DType::I32) == 2147483647.0);
  CHECK(dtype_max(DType::Bool) == 1.0);

  for (DType t : kAll) {
    // Unsigned floats (e8m0, ue4m3) have their smallest value as the lowest.
    if (dtype_is_float(t) && (!float_format(t) || float_format(t)->sign)) CHECK(dtype_lowest(t) == -dtype_max(t));
  }
  CHECK(dtype_lowest(DType::I8) == -128.0);
  CHECK(dtype_lowest(DType::U8) == 0.0);
  CHECK(dtype_lowest(DType::I32) == -2147483648.0);
  CHECK(dtype_lowest(DType::Bool) == 0.0);
}

TEST_CASE("max and lowest are fixed points of rounding") {
  for (DType t : kAll) {
    CAPTURE(dtype_name(t));
    CHECK(round_to_dtype(t, dtype_max(t)) == dtype_max(t));
    CHECK(round_to_dtype(t, dtype_lowest(t)) == dtype_lowest(t));
  }
}

}  // namespace dtype_names_test
