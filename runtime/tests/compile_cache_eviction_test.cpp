// The compile cache stays under its size limit: storing an entry evicts the least recently
// used ones (a hit counts as a use), never the entry just stored; the limit comes from
// TEGULA_CACHE_MAX_BYTES with K/M/G suffixes, and a malformed value is reported and ignored.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include <string>

#include "core/Files.h"
#include "runtime/CompileCache.h"
#include "runtime/tests/TestSupport.h"

namespace compile_cache_eviction_test {

using namespace tegula;
using namespace tegula::runtime;
using namespace tegula::testing;

namespace {

std::string key_of(int i) {
  CacheKeyParts parts;
  parts.ir = "kernel k" + std::to_string(i) + "() {}";
  return cache_key(parts);
}

/// Pretend the entry was last used `age` seconds ago.
void age_entry(const CompileCache& cache, const std::string& key, int age) {
  struct timespec times[2];
  clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= age;
  times[1] = times[0];
  REQUIRE(utimensat(AT_FDCWD, cache.entry_path(key).c_str(), times, 0) == 0);
}

}  // namespace

TEST_CASE("storing past the limit evicts the least recently used entries") {
  std::string dir = scratch_dir("cache_eviction");
  std::string payload(1000, 'x');
  uint64_t entry_bytes = encode_cache_entry(key_of(0), payload).size();
  CompileCache cache(dir, Log{}, 3 * entry_bytes);
  for (int i = 0; i < 3; ++i) {
    cache.store(key_of(i), payload);
    age_entry(cache, key_of(i), 100 - i);  // 0 oldest, 2 newest
  }
  std::string out;
  REQUIRE(cache.lookup(key_of(0), &out) == CompileCache::Lookup::Hit);  // 0 is used again: now the newest
  cache.store(key_of(3), payload);  // one too many: the least recently used (1) goes
  CHECK(file_exists(cache.entry_path(key_of(0))));
  CHECK_FALSE(file_exists(cache.entry_path(key_of(1))));
  CHECK(file_exists(cache.entry_path(key_of(2))));
  CHECK(file_exists(cache.entry_path(key_of(3))));
}

TEST_CASE("an entry larger than the limit is still kept, alone") {
  std::string dir = scratch_dir("cache_eviction_big");
  CompileCache cache(dir, Log{}, 100);
  cache.store(key_of(1), std::string(500, 'a'));
  age_entry(cache, key_of(1), 10);
  cache.store(key_of(2), std::string(500, 'b'));
  CHECK_FALSE(file_exists(cache.entry_path(key_of(1))));
  CHECK(file_exists(cache.entry_path(key_of(2))));
}

TEST_CASE("the limit comes from TEGULA_CACHE_MAX_BYTES") {
  CapturedLog captured;
  Log log(false, CapturedLog::callback, &captured);
  CHECK(resolve_cache_limit(Env{}, log) == kDefaultCacheLimit);
  CHECK(resolve_cache_limit(Env{}.set("TEGULA_CACHE_MAX_BYTES", "4096"), log) == 4096);
  CHECK(resolve_cache_limit(Env{}.set("TEGULA_CACHE_MAX_BYTES", "512K"), log) == 512 * 1024);
  CHECK(resolve_cache_limit(Env{}.set("TEGULA_CACHE_MAX_BYTES", "2G"), log) == (uint64_t(2) << 30));
  CHECK(captured.lines.empty());
}

TEST_CASE("misuse: a limit that is not a size is reported and the default used") {
  for (const char* bad : {"lots", "12T", "-5", "1.5G", "G"}) {
    CapturedLog captured;
    Log log(false, CapturedLog::callback, &captured);
    CAPTURE(bad);
    CHECK(resolve_cache_limit(Env{}.set("TEGULA_CACHE_MAX_BYTES", bad), log) == kDefaultCacheLimit);
    CHECK(captured.contains("TEGULA_CACHE_MAX_BYTES"));
  }
}

}  // namespace compile_cache_eviction_test
