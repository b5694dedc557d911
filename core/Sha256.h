/// \file
/// SHA-256 (FIPS 180-4), for compile-cache keys, cache-entry integrity and report hashes.
///
/// Blocks are hashed with the x86 SHA extensions where the processor has them (checked once,
/// with cpuid), else by the portable code: a compile-cache hit hashes the whole executable
/// twice (the entry's digest, the plugin container's), about 0.4 MB for a CUDA gemm, which
/// the portable code takes ~2 ms over and the extensions ~0.3 ms.
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
  /// The portable block function only, whatever the processor has (tests compare the two).
  struct PortableOnly {};
  explicit Sha256(PortableOnly);
  Sha256& update(const void* data, size_t size);
  Sha256& update(std::string_view text) { return update(text.data(), text.size()); }
  /// Finish and return the 32-byte digest; the object must not be updated afterwards.
  std::array<uint8_t, 32> digest();
  /// Finish and return the digest as 64 lower-case hex characters.
  std::string hex();

private:
  void blocks(const uint8_t* p, size_t count);
  bool portable_only_ = false;
  uint32_t h_[8];
  uint8_t buf_[64];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

/// "x86 sha extensions" or "portable": what Sha256 objects hash blocks with in this process.
const char* sha256_implementation();

/// Hex digest of a whole string.
std::string sha256_hex(std::string_view data);

}  // namespace tegula
