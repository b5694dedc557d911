// Bytes that are not an intact container of the expected kind are refused as Corrupt, with a
// message naming the container and the cause: truncation at every length, a flipped bit
// anywhere (the digest), a wrong magic or version, non-zero reserved bytes, trailing bytes,
// and forged field lengths (past the end, near 2^64) even when the digest is resealed.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "core/Sha256.h"
#include "core/Xxh64.h"
#include "plugins/support/Container.h"

namespace container_misuse_test {

using namespace tegula;
using namespace tegula::plugin;

namespace {

std::string sample() { return ContainerWriter("tgtestex", 2).field("target").u64(42).field(std::string(100, 'x')).finish(); }

/// Read the sample's three fields and the end; the first error, or Ok.
Status read_all(const std::string& bytes) {
  auto r = ContainerReader::open(bytes.data(), bytes.size(), "tgtestex", 2, "test executable");
  if (!r.is_ok()) return r.status();
  if (auto f = r->field("target"); !f.is_ok()) return f.status();
  if (auto f = r->u64("count"); !f.is_ok()) return f.status();
  if (auto f = r->field("code"); !f.is_ok()) return f.status();
  return r->finish();
}

void check_corrupt(const Status& s, const std::string& cause) {
  CHECK(s.code() == ErrorCode::Corrupt);
  CHECK_MESSAGE(s.message().rfind("test executable: ", 0) == 0, s.message());
  CHECK_MESSAGE(s.message().find(cause) != std::string::npos, s.message());
}

/// Recompute the size and digest after an edit, as a forger (or a buggy writer) would.
std::string reseal(std::string bytes) {
  uint64_t total = bytes.size();
  std::memcpy(bytes.data() + kContainerSizeAt, &total, 8);
  uint64_t digest = xxh64(std::string_view(bytes).substr(kContainerHeaderBytes));
  std::memcpy(bytes.data() + kContainerDigestAt, &digest, 8);  // little-endian, as the header
  return bytes;
}

}  // namespace

TEST_CASE("the intact sample reads") { CHECK(read_all(sample()).is_ok()); }

TEST_CASE("every truncation is refused") {
  std::string bytes = sample();
  for (size_t n = 0; n < bytes.size(); ++n) {
    CAPTURE(n);
    Status s = read_all(bytes.substr(0, n));
    CHECK(s.code() == ErrorCode::Corrupt);
  }
  check_corrupt(read_all(bytes.substr(0, 10)), "shorter than the 56-byte header");
  check_corrupt(read_all(bytes.substr(0, bytes.size() - 1)), "truncated?");
  check_corrupt(ContainerReader::open(nullptr, 0, "tgtestex", 2, "test executable").status(), "bytes");
}

TEST_CASE("a flipped bit anywhere is refused") {
  std::string bytes = sample();
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::string bad = bytes;
    bad[at] = char(bad[at] ^ 0x10);
    CAPTURE(at);
    CHECK(read_all(bad).code() == ErrorCode::Corrupt);
  }
  std::string bad = bytes;
  bad.back() ^= 1;
  check_corrupt(read_all(bad), "digest mismatch");
}

TEST_CASE("a wrong magic, version or reserved word is refused before the digest") {
  std::string bytes = sample();
  std::string other = "tgother!" + bytes.substr(8);
  check_corrupt(read_all(other), "bad magic");
  check_corrupt(ContainerReader::open(bytes.data(), bytes.size(), "short", 2, "test executable").status(), "bad magic");
  std::string old = bytes;
  old[kContainerVersionAt] = 1;
  check_corrupt(read_all(old), "format version 1, this plugin reads 2");
  std::string reserved = bytes;
  reserved[12] = 1;
  check_corrupt(read_all(reserved), "reserved header bytes");
}

TEST_CASE("the digest's unused bytes must be zero, and an old SHA-256 container is refused") {
  std::string bytes = sample();
  std::string reserved = bytes;
  reserved[kContainerDigestAt + 8] = 1;  // the XXH64 still matches
  check_corrupt(read_all(reserved), "reserved header bytes");
  // Before 2026-12-04 bytes 24-55 held the body's SHA-256: such an executable (in a cache)
  // is Corrupt, which makes the runtime compile it again.
  std::string old = bytes;
  auto sha = Sha256().update(std::string_view(bytes).substr(kContainerHeaderBytes)).digest();
  std::memcpy(old.data() + kContainerDigestAt, sha.data(), 32);
  check_corrupt(read_all(old), "digest mismatch");
}

TEST_CASE("trailing bytes and extra size are refused") {
  check_corrupt(read_all(sample() + "x"), "truncated?");
  check_corrupt(read_all(reseal(sample() + "x")), "1 trailing bytes after the last field");
}

TEST_CASE("forged field lengths are refused even when resealed") {
  std::string bytes = sample();
  const size_t first_length = kContainerHeaderBytes;
  for (uint64_t n : {uint64_t(1000), uint64_t(bytes.size()), ~uint64_t(0), ~uint64_t(0) - 7, uint64_t(1) << 63}) {
    CAPTURE(n);
    std::string bad = bytes;
    std::memcpy(bad.data() + first_length, &n, 8);
    check_corrupt(read_all(reseal(bad)), "field 'target' claims");
  }
  // A u64 field of the wrong width.
  std::string narrow = ContainerWriter("tgtestex", 2).field("target").field("1234").field("code").finish();
  check_corrupt(read_all(narrow), "field 'count' is 4 bytes, not 8");
  // A missing last field, and one too many.
  check_corrupt(read_all(ContainerWriter("tgtestex", 2).field("target").u64(1).finish()), "field 'code' is missing");
  check_corrupt(read_all(ContainerWriter("tgtestex", 2).field("t").u64(1).field("c").field("extra").finish()),
                "trailing bytes after the last field");
}

}  // namespace container_misuse_test
