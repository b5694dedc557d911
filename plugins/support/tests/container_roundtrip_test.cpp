// An executable container reads back exactly what was written: fields in order (empty ones
// and binary ones included), u64 fields, and the header's magic, version, size and digest.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "core/Xxh64.h"
#include "plugins/support/Container.h"

namespace container_roundtrip_test {

using namespace tegula;
using namespace tegula::plugin;

TEST_CASE("fields read back in order, byte for byte") {
  std::string binary("\0\x01\xff\x7f" "ELF", 7);
  std::string bytes = ContainerWriter("tgtestex", 3).field("first").field("").u64(0x0123456789abcdefull).field(binary).finish();
  CHECK(bytes.compare(0, 8, "tgtestex") == 0);
  CHECK(uint8_t(bytes[kContainerVersionAt]) == 3);
  uint64_t total = 0;
  std::memcpy(&total, bytes.data() + kContainerSizeAt, 8);
  CHECK(total == bytes.size());
  uint64_t digest = 0;
  std::memcpy(&digest, bytes.data() + kContainerDigestAt, 8);
  CHECK(digest == xxh64(std::string_view(bytes).substr(kContainerHeaderBytes)));
  CHECK(std::string_view(bytes).substr(kContainerDigestAt + 8, 24) == std::string(24, '\0'));

  auto r = ContainerReader::open(bytes.data(), bytes.size(), "tgtestex", 3, "test executable");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto a = r->field("a");
  auto b = r->field("b");
  auto c = r->u64("c");
  auto d = r->field("d");
  REQUIRE((a.is_ok() && b.is_ok() && c.is_ok() && d.is_ok()));
  CHECK(*a == "first");
  CHECK(b->empty());
  CHECK(*c == 0x0123456789abcdefull);
  CHECK(*d == binary);
  CHECK(r->finish().is_ok());
}

TEST_CASE("a container with no fields is valid") {
  std::string bytes = ContainerWriter("tgtestex", 1).finish();
  CHECK(bytes.size() == kContainerHeaderBytes);
  auto r = ContainerReader::open(bytes.data(), bytes.size(), "tgtestex", 1, "test executable");
  REQUIRE(r.is_ok());
  CHECK(r->finish().is_ok());
}

}  // namespace container_roundtrip_test
