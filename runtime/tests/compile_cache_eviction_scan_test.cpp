// Storing into the compile cache walks its folder once, to count what is there, and then
// only when the running total passes the size limit: stores far below the limit cost no
// readdir and stat of every entry. The walks show in the debug log.
#include <doctest/doctest.h>

#include <string>

#include "core/Files.h"
#include "runtime/CompileCache.h"
#include "runtime/tests/TestSupport.h"

namespace compile_cache_eviction_scan_test {

using namespace tegula;
using namespace tegula::runtime;
using namespace tegula::testing;

namespace {

std::string key_of(int i) {
  CacheKeyParts parts;
  parts.ir = "kernel k" + std::to_string(i) + "() {}";
  return cache_key(parts);
}

size_t scans(const CapturedLog& log) {
  size_t n = 0;
  for (const std::string& l : log.lines) n += l.find("compile cache: scanned ") != std::string::npos;
  return n;
}

}  // namespace

TEST_CASE("stores below the limit scan the folder once; passing the limit scans and evicts") {
  CapturedLog captured;
  Log log(false, CapturedLog::callback, &captured);
  std::string payload(1000, 'x');
  uint64_t entry_bytes = encode_cache_entry(key_of(0), payload).size();
  CompileCache cache(scratch_dir("cache_eviction_scan"), log, 3 * entry_bytes);
  for (int i = 0; i < 3; ++i) cache.store(key_of(i), payload);
  CHECK(scans(captured) == 1);
  for (int i = 0; i < 3; ++i) CHECK(file_exists(cache.entry_path(key_of(i))));

  cache.store(key_of(3), payload);  // past the limit: counted again, and one entry goes
  CHECK(scans(captured) == 2);
  int left = 0;
  for (int i = 0; i < 4; ++i) left += file_exists(cache.entry_path(key_of(i)));
  CHECK(left == 3);
  CHECK(file_exists(cache.entry_path(key_of(3))));
}

}  // namespace compile_cache_eviction_scan_test
