// Buffers: write, read, copy (same device and across devices), fill.
#include <doctest/doctest.h>

#include <cstdint>

#include "runtime/tests/TestSupport.h"

namespace buffer_roundtrip_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("write then read back, at offsets") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  auto b = d->alloc(64);
  REQUIRE(b.is_ok());
  CHECK(b->size() == 64);
  std::vector<uint8_t> data(64);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 7);
  REQUIRE(b->write(data).is_ok());
  REQUIRE(b->write(std::vector<uint8_t>{0xaa, 0xbb}, 10).is_ok());
  auto back = b->read<uint8_t>(64);
  REQUIRE(back.is_ok());
  data[10] = 0xaa, data[11] = 0xbb;
  CHECK(*back == data);
  CHECK(b->read<uint8_t>(4, 60).value() == std::vector<uint8_t>(data.begin() + 60, data.end()));
}

TEST_CASE("copy within a device and across devices") {
  auto rt = open_runtime({reference_manifest(), test_manifest("abi_newer")});
  REQUIRE(rt.is_ok());
  auto ref = rt->find_device("reference");
  auto other = rt->find_device("abi_newer");
  auto a = ref->alloc(16);
  auto b = ref->alloc(16);
  auto c = other->alloc(16);
  std::vector<uint32_t> values = {1, 2, 3, 4};
  REQUIRE(a->write(values).is_ok());
  REQUIRE(b->copy_from(*a, 8, 4, 0).is_ok());  // b[4..12) = a[0..8)
  CHECK(b->read<uint32_t>(2, 4).value() == std::vector<uint32_t>{1, 2});
  REQUIRE(c->copy_from(*a, 16).is_ok());  // staged through the host
  CHECK(c->read<uint32_t>(4).value() == values);
}

TEST_CASE("fill with 1, 2, 4 and 8-byte patterns") {
  auto rt = open_runtime({reference_manifest()});
  auto b = rt->find_device("reference")->alloc(32);
  REQUIRE(b.is_ok());
  REQUIRE(b->fill<uint8_t>(0x11, 0, 32).is_ok());
  REQUIRE(b->fill<uint16_t>(0x2222, 2, 4).is_ok());
  REQUIRE(b->fill<uint32_t>(0x33333333, 8, 8).is_ok());
  REQUIRE(b->fill<uint64_t>(0x4444444444444444ull, 24, 8).is_ok());
  auto bytes = b->read<uint8_t>(32).value();
  std::vector<uint8_t> expected(32, 0x11);
  for (int i = 2; i < 6; ++i) expected[i] = 0x22;
  for (int i = 8; i < 16; ++i) expected[i] = 0x33;
  for (int i = 24; i < 32; ++i) expected[i] = 0x44;
  CHECK(bytes == expected);
}

TEST_CASE("zero-size buffers and transfers are fine") {
  auto rt = open_runtime({reference_manifest()});
  auto b = rt->find_device("reference")->alloc(0);
  REQUIRE(b.is_ok());
  CHECK(b->write(nullptr, 0).is_ok());
  CHECK(b->read(nullptr, 0).is_ok());
}

}  // namespace buffer_roundtrip_test
