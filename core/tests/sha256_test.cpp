// SHA-256 against the FIPS 180-4 / NIST example vectors, and incremental updates.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "core/Sha256.h"

namespace sha256_test {

using namespace tegula;

TEST_CASE("empty input") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("one block: abc") {
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("two blocks: the 448-bit message") {
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("the 896-bit message") {
  CHECK(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                   "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu") ==
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST_CASE("one million 'a'") {
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // The same, fed in uneven pieces.
  Sha256 h;
  std::string chunk(997, 'a');
  size_t left = 1000000;
  while (left > 0) {
    size_t n = left < chunk.size() ? left : chunk.size();
    h.update(chunk.data(), n);
    left -= n;
  }
  CHECK(h.hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("lengths around the padding boundary agree with one-shot hashing") {
  // 55, 56 and 64 bytes are where the length field does or does not fit in the last block.
  // Hash byte by byte and in one piece; the two must match for every length.
  for (size_t len = 0; len <= 130; ++len) {
    std::string s(len, 'x');
    Sha256 h;
    for (char c : s) h.update(&c, 1);
    CHECK(h.hex() == sha256_hex(s));
  }
  // A known answer at the boundary: 64 'a's is exactly one block before padding.
  CHECK(sha256_hex(std::string(64, 'a')) ==
        "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST_CASE("incremental updates split at every offset of a 200-byte input") {
  std::string data;
  for (int i = 0; i < 200; ++i) data += char((i * 37 + 11) & 0xff);
  std::string whole = sha256_hex(data);
  for (size_t a = 0; a <= data.size(); ++a) {
    Sha256 h;
    h.update(data.data(), a);
    h.update(data.data() + a, data.size() - a);
    CHECK(h.hex() == whole);
  }
  // Three pieces, and empty updates in between change nothing.
  for (size_t a = 0; a <= data.size(); a += 7) {
    for (size_t b = a; b <= data.size(); b += 13) {
      Sha256 h;
      h.update(data.data(), a).update(data.data(), 0);
      h.update(std::string_view(data).substr(a, b - a));
      h.update(data.data() + b, data.size() - b);
      CHECK(h.hex() == whole);
    }
  }
}

TEST_CASE("digest bytes match the hex form") {
  Sha256 h;
  h.update("abc");
  std::array<uint8_t, 32> d = h.digest();
  CHECK(d[0] == 0xba);
  CHECK(d[1] == 0x78);
  CHECK(d[31] == 0xad);
}

TEST_CASE("the portable block function and the processor's agree on every length") {
  // Where the processor has the SHA extensions the default object uses them; both must give
  // the FIPS answers and the same digest of random bytes of every length to a few blocks.
  INFO("implementation: " << std::string(sha256_implementation()));
  CHECK(Sha256(Sha256::PortableOnly{}).update("abc").hex() ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::mt19937 random(7);
  std::string data(4096 + 77, '\0');
  for (char& c : data) c = char(random());
  for (size_t len = 0; len <= data.size(); len += len < 300 ? 1 : 61) {
    std::string_view piece(data.data(), len);
    Sha256 portable{Sha256::PortableOnly{}};
    portable.update(piece);
    CHECK(Sha256().update(piece).hex() == portable.hex());
  }
}

}  // namespace sha256_test
