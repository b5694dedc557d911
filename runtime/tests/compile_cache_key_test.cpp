// The cache key changes with every input that decides an executable's bytes, and entries
// round-trip through their encoding.
#include <doctest/doctest.h>

#include "runtime/CompileCache.h"

namespace compile_cache_key_test {

using namespace tegula::runtime;

TEST_CASE("every key part matters") {
  CacheKeyParts base;
  base.ir = "kernel k() {}";
  base.lowering = "aligned 1 raster 0 divisibility";
  base.runtime_build = "build-id 01";
  base.target_hash = "t";
  base.plugin_name = "reference";
  base.plugin_version = "0.1.0";
  base.abi_version = 1;
  std::string k = cache_key(base);
  CHECK(k.size() == 64);
  CHECK(cache_key(base) == k);
  auto differs = [&](auto change) {
    CacheKeyParts p = base;
    change(p);
    return cache_key(p) != k;
  };
  CHECK(differs([](CacheKeyParts& p) { p.ir += " "; }));
  CHECK(differs([](CacheKeyParts& p) { p.lowering += " M=16"; }));
  CHECK(differs([](CacheKeyParts& p) { p.runtime_build = "build-id 02"; }));
  CHECK(differs([](CacheKeyParts& p) { p.target_hash = "u"; }));
  CHECK(differs([](CacheKeyParts& p) { p.plugin_name = "cuda"; }));
  CHECK(differs([](CacheKeyParts& p) { p.plugin_version = "0.1.1"; }));
  CHECK(differs([](CacheKeyParts& p) { p.abi_version = 2; }));
  CHECK(differs([](CacheKeyParts& p) { p.options = "x=1"; }));
  CHECK(differs([](CacheKeyParts& p) { p.plugin_build = "/lib/libtegula_reference.so:1:2:3:4.5"; }));
  // Length prefixes: moving a character between parts changes the key.
  CacheKeyParts a = base, b = base;
  a.plugin_name = "ab", a.plugin_version = "c";
  b.plugin_name = "a", b.plugin_version = "bc";
  CHECK(cache_key(a) != cache_key(b));
}

TEST_CASE("entries round-trip, and decoding checks everything") {
  CacheKeyParts parts;
  parts.ir = "ir";
  std::string key = cache_key(parts);
  std::string entry = encode_cache_entry(key, "payload bytes");
  CHECK(entry.size() == kCacheEntryHeaderBytes + 13);
  CHECK(decode_cache_entry(key, entry).value() == "payload bytes");
  parts.ir = "ir2";
  std::string other = cache_key(parts);
  CHECK(decode_cache_entry(other, entry).status().message() == "the entry belongs to another key");
  CHECK(decode_cache_entry(key, encode_cache_entry(key, "")).value() == "");
}

}  // namespace compile_cache_key_test
