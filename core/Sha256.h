/// \file
/// SHA-256 (FIPS 180-4), for compile-cache keys, cache-entry integrity and report hashes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tegula {

class Sha256 {
public:
  Sha256();
  Sha256& update(const void* data, size_t size);
  Sha256& update(std::string_view text) { return update(text.data(), text.size()); }
  /// Finish and return the 32-byte digest; the object must not be updated afterwards.
  std::array<uint8_t, 32> digest();
  /// Finish and return the digest as 64 lower-case hex characters.
  std::string hex();

private:
  void block(const uint8_t* p);
  uint32_t h_[8];
  uint8_t buf_[64];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

/// Hex digest of a whole string.
std::string sha256_hex(std::string_view data);

}  // namespace tegula
