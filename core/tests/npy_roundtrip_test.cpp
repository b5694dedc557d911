// .npy files: what format_npy writes parse_npy reads back, byte for byte, for every shape
// rank NumPy writes (a scalar, one dimension, several), and a header NumPy itself wrote.
#include <doctest/doctest.h>

#include <cstring>

#include "core/Npy.h"

namespace npy_roundtrip_test {

using namespace tegula;

TEST_CASE("format_npy and parse_npy round-trip") {
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{}, {5}, {2, 3}, {2, 1, 4}, {0, 3}}) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::string data(size_t(n) * 4, '\0');
    for (size_t i = 0; i < data.size(); ++i) data[i] = char(i * 7);
    std::string file = format_npy("<f4", shape, data);
    CHECK((file.size() - data.size()) % 64 == 0);  // the data starts 64-byte aligned
    auto a = parse_npy(file, "x.npy");
    REQUIRE(a.is_ok());
    CHECK(a->descr == "<f4");
    CHECK(a->shape == shape);
    CHECK(a->data == data);
  }
}

TEST_CASE("a header as NumPy 1.26 writes it (np.save of np.arange(6, dtype=np.int32).reshape(2, 3))") {
  std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }";
  header.append(128 - 10 - header.size() - 1, ' ');
  header += '\n';
  std::string file = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + char(0) + header;
  for (int32_t v = 0; v < 6; ++v) file.append(reinterpret_cast<const char*>(&v), 4);
  auto a = parse_npy(file, "np.npy");
  REQUIRE(a.is_ok());
  CHECK(a->descr == "<i4");
  CHECK(a->shape == std::vector<int64_t>{2, 3});
  CHECK(a->numel() == 6);
  int32_t last = 0;
  std::memcpy(&last, a->data.data() + 20, 4);
  CHECK(last == 5);
}

TEST_CASE("version 2.0 headers (4-byte length) and double-quoted keys") {
  std::string header = "{\"descr\": \"|u1\", \"shape\": (3,), \"fortran_order\": False}\n";
  uint32_t len = uint32_t(header.size());
  std::string file = std::string("\x93NUMPY\x02\x00", 8) + std::string(reinterpret_cast<const char*>(&len), 4) + header + "abc";
  auto a = parse_npy(file, "v2.npy");
  REQUIRE(a.is_ok());
  CHECK(a->descr == "|u1");
  CHECK(a->data == "abc");
}

TEST_CASE("npy_descr names NumPy's dtypes and none for those NumPy lacks") {
  CHECK(npy_descr(DType::F32).value() == "<f4");
  CHECK(npy_descr(DType::F16).value() == "<f2");
  CHECK(npy_descr(DType::Bool).value() == "|b1");
  CHECK_FALSE(npy_descr(DType::BF16).has_value());
  CHECK_FALSE(npy_descr(DType::E4M3).has_value());
}

}  // namespace npy_roundtrip_test
