// A cache hit marks its entry as used by setting its modification time, but only when the
// entry was last used over a minute ago: eviction order needs no finer grain, and a kernel
// compiled over and over then costs no metadata write per hit.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include <string>

#include "runtime/CompileCache.h"
#include "runtime/tests/TestSupport.h"

namespace compile_cache_hit_touch_test {

using namespace tegula;
using namespace tegula::runtime;
using namespace tegula::testing;

namespace {

std::string key_of(int i) {
  CacheKeyParts parts;
  parts.ir = "kernel k" + std::to_string(i) + "() {}";
  return cache_key(parts);
}

/// Set the entry's times to `age` seconds ago; returns that time in seconds.
time_t age_entry(const CompileCache& cache, const std::string& key, int age) {
  struct timespec times[2];
  clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= age;
  times[0].tv_nsec = 0;
  times[1] = times[0];
  REQUIRE(utimensat(AT_FDCWD, cache.entry_path(key).c_str(), times, 0) == 0);
  return times[0].tv_sec;
}

time_t mtime_of(const CompileCache& cache, const std::string& key) {
  struct stat st {};
  REQUIRE(stat(cache.entry_path(key).c_str(), &st) == 0);
  return st.st_mtim.tv_sec;
}

}  // namespace

TEST_CASE("a hit refreshes only an entry last used over a minute ago") {
  CompileCache cache(scratch_dir("cache_hit_touch"), Log{});
  cache.store(key_of(1), "payload");
  std::string out;

  time_t recent = age_entry(cache, key_of(1), 30);
  REQUIRE(cache.lookup(key_of(1), &out) == CompileCache::Lookup::Hit);
  CHECK(mtime_of(cache, key_of(1)) == recent);  // recent enough: left alone

  time_t old = age_entry(cache, key_of(1), 120);
  REQUIRE(cache.lookup(key_of(1), &out) == CompileCache::Lookup::Hit);
  CHECK(mtime_of(cache, key_of(1)) > old + 100);  // now
}

}  // namespace compile_cache_hit_touch_test
