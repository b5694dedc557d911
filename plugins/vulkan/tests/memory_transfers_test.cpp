// Buffers and transfers through the plugin ABI as the runtime uses them: host writes and
// reads at offsets, device copies (overlapping ranges of one buffer too), fills with 1-, 2-,
// 4- and 8-byte patterns at aligned and unaligned offsets, empty buffers, and events whose
// elapsed time is measured.
#include <algorithm>
#include <cstdint>
#include <numeric>

#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace memory_transfers_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("writes, reads, copies and fills move exactly the bytes asked for") {
  TG_REQUIRE_VULKAN_DEVICE();
  Device& dev = *env().dev;
  const size_t n = 1000;
  std::vector<uint8_t> host(n);
  std::iota(host.begin(), host.end(), uint8_t(1));
  auto a = dev.alloc(n), b = dev.alloc(n);
  REQUIRE(a.is_ok());
  REQUIRE(b.is_ok());
  REQUIRE(a->write(host.data(), n).is_ok());
  REQUIRE(b->fill<uint8_t>(0, 0, n).is_ok());
  REQUIRE(b->copy_from(*a, 300, 17, 5).is_ok());
  std::vector<uint8_t> expect(n, 0);
  std::copy(host.begin() + 5, host.begin() + 305, expect.begin() + 17);
  // Fills: every pattern size, at offsets that are and are not multiples of four.
  REQUIRE(b->fill<uint16_t>(0xa1b2, 402, 100).is_ok());
  for (size_t i = 0; i < 100; i += 2) expect[402 + i] = 0xb2, expect[403 + i] = 0xa1;
  REQUIRE(b->fill<uint32_t>(0x01020304, 600, 64).is_ok());
  for (size_t i = 0; i < 64; i += 4) expect[600 + i] = 4, expect[601 + i] = 3, expect[602 + i] = 2, expect[603 + i] = 1;
  REQUIRE(b->fill<uint64_t>(0x1122334455667788ull, 701, 80).is_ok());
  for (size_t i = 0; i < 80; ++i) expect[701 + i] = uint8_t(0x88 - 0x11 * (i % 8));
  REQUIRE(b->fill<uint8_t>(0x5a, 999, 1).is_ok());
  expect[999] = 0x5a;
  // Overlapping device copy within one buffer behaves like memmove.
  REQUIRE(b->copy_from(*b, 50, 20, 0).is_ok());
  std::vector<uint8_t> moved(expect.begin(), expect.begin() + 50);
  std::copy(moved.begin(), moved.end(), expect.begin() + 20);
  std::vector<uint8_t> got(n);
  REQUIRE(b->read(got.data(), n).is_ok());
  CHECK(got == expect);
  std::vector<uint8_t> part(10);
  REQUIRE(a->read(part.data(), 10, 990).is_ok());
  CHECK(std::equal(part.begin(), part.end(), host.begin() + 990));
  auto empty = dev.alloc(0);
  REQUIRE(empty.is_ok());
  CHECK(empty->size() == 0);
}

TEST_CASE("events time a launch") {
  TG_REQUIRE_VULKAN_DEVICE();
  Device& dev = *env().dev;
  auto kernel = dev.compile(example_text("elementwise/silu_mul.tile"));
  REQUIRE(kernel.is_ok());
  const int64_t n = 1 << 16;
  auto x = dev.alloc(n * 2), z = dev.alloc(n * 2), y = dev.alloc(n * 2);
  REQUIRE((x.is_ok() && z.is_ok() && y.is_ok()));
  REQUIRE(x->fill<uint16_t>(0x3f80, 0, n * 2).is_ok());
  REQUIRE(z->fill<uint16_t>(0x3f80, 0, n * 2).is_ok());
  auto e0 = dev.create_event(), e1 = dev.create_event();
  REQUIRE((e0.is_ok() && e1.is_ok()));
  REQUIRE(e0->record().is_ok());
  REQUIRE(kernel->launch({Arg::tensor(*x), Arg::tensor(*z), Arg::tensor(*y), Arg::integer(n)}).is_ok());
  REQUIRE(e1->record().is_ok());
  REQUIRE(e1->synchronize().is_ok());
  auto ms = Event::elapsed_ms(*e0, *e1);
  if (ms.is_ok()) CHECK(*ms >= 0.0);
  else CHECK(ms.status().code() == ErrorCode::Unimplemented);
  std::vector<uint16_t> out(4);
  REQUIRE(y->read(out.data(), 8).is_ok());
  CHECK(bf16_to_double(out[0]) == doctest::Approx(1.0 / (1.0 + std::exp(-1.0))).epsilon(0.01));
}

}  // namespace memory_transfers_test
