/// \file
/// SHA-256 (FIPS 180-4), for compile-cache keys, report and bundle hashes, and the
/// conformance suite's digests: wherever a collision must be infeasible.
///
/// Blocks are hashed with the x86 SHA extensions where the processor has them (checked once,
/// with cpuid), else by the portable code: 1.6 GB/s against 265 MB/s on the 2-core
/// workstation (`tegula_bench_cache` prints both rates first). Until format 4 of cache
/// entries a compile-cache hit hashed the whole executable twice with it (the entry's digest,
/// the plugin container's); both are XXH64 now (core/Xxh64.h).
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
