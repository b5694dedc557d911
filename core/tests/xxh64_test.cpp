// XXH64 gives the reference implementation's digests (xxhsum -H1 of xxHash 0.8.1, Debian's
// xxhash package) at every length class: empty, each tail (1-7 bytes, 4-byte and 8-byte
// steps), the 32-byte stripe boundary and a megabyte; a seed changes the digest, and so does
// any one flipped bit.
#include <doctest/doctest.h>

#include <string>

#include "core/Xxh64.h"

namespace xxh64_test {

using namespace tegula;

namespace {

std::string pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = char((i * 7 + 3) & 255);
  return s;
}

}  // namespace

TEST_CASE("XXH64 matches xxhsum on every length class") {
  CHECK(xxh64(std::string_view("")) == 0xef46db3751d8e999ull);
  CHECK(xxh64(std::string_view("abc")) == 0x44bc2cf5ad770999ull);
  struct Vector {
    size_t length;
    uint64_t digest;
  };
  const Vector vectors[] = {{1, 0x1f25c8d0bc1f4bb6ull},   {3, 0x31d2363f52e564c9ull},   {4, 0x9bb64b7d66ee9fdaull},
                            {5, 0xc7608efddb7051feull},   {7, 0x9a7b149959ce60d8ull},   {8, 0xdab99d95c6f90092ull},
                            {9, 0x170bb6bf975b4c02ull},   {15, 0x1b47cb8243cc8e32ull},  {16, 0x434850232b787be2ull},
                            {31, 0xa2aa5f33cc4a6119ull},  {32, 0x23c3c17ef790fd97ull},  {33, 0x50a7cfc7ba588784ull},
                            {63, 0x5e3e54b431c7493cull},  {64, 0x0eb64b3ef6eeb01full},  {65, 0xa383b724b2bd12f1ull},
                            {100, 0xa61f8d4c170fe531ull}, {1000, 0x5f235fa033f1a3fbull}, {1 << 20, 0x989560ce899d661bull}};
  for (const Vector& v : vectors) {
    CAPTURE(v.length);
    CHECK(xxh64(pattern(v.length)) == v.digest);
  }
}

TEST_CASE("a seed or one flipped bit changes the digest") {
  std::string s = pattern(1000);
  uint64_t base = xxh64(s);
  CHECK(xxh64(s, 1) != base);
  for (size_t byte : {size_t(0), size_t(31), size_t(32), size_t(999)})
    for (int bit = 0; bit < 8; ++bit) {
      std::string t = s;
      t[byte] = char(t[byte] ^ (1 << bit));
      CHECK(xxh64(t) != base);
    }
}

}  // namespace xxh64_test
