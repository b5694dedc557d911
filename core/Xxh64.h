/// \file
/// XXH64 (Yann Collet's xxHash, 64-bit), the integrity check of compile-cache entries and
/// plugin executable containers: it catches a damaged or truncated file as zstd's frame
/// checksum does, at memory speed (about 10 GB/s here against SHA-256's 1.6 GB/s), where a
/// compile-cache hit used to spend most of its time hashing a large executable twice.
///
/// Not a cryptographic hash: nothing here needs one. The cache is trusted by its ownership
/// and permissions (CompileCache::untrusted), and whoever can write an entry can write any
/// digest; cache keys and report hashes, where collisions must be infeasible, stay SHA-256.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tegula {

uint64_t xxh64(const void* data, size_t size, uint64_t seed = 0);
inline uint64_t xxh64(std::string_view bytes, uint64_t seed = 0) { return xxh64(bytes.data(), bytes.size(), seed); }

}  // namespace tegula
