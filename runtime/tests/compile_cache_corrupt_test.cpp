// A damaged cache entry (truncated, a payload or header byte flipped, emptied, renamed to
// another key, kernel facts that do not decode) is detected, logged, deleted and rebuilt;
// it is never handed to the plugin, and the rebuilt kernel computes the right results.
#include <doctest/doctest.h>

#include <dirent.h>

#include <functional>

#include "runtime/CompileCache.h"
#include "runtime/tests/TestSupport.h"

namespace compile_cache_corrupt_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

std::string only_entry(const std::string& cache) {
  std::string dir = cache + "/kernels-v1";
  DIR* d = ::opendir(dir.c_str());
  REQUIRE(d);
  std::string found;
  while (const dirent* e = ::readdir(d))
    if (std::string(e->d_name).size() > 4 && std::string(e->d_name).find(".bin") != std::string::npos)
      found = dir + "/" + e->d_name;
  ::closedir(d);
  REQUIRE(!found.empty());
  return found;
}

/// Compile once to fill the cache, damage the entry, and compile again in a new runtime.
void damage_and_rebuild(const std::string& name, const std::function<void(std::string&)>& damage,
                        const std::string& expected_reason) {
  INFO(name);
  std::string cache = scratch_dir("cache_corrupt_" + name);
  {
    auto rt = open_runtime({reference_manifest()}, nullptr, cache);
    REQUIRE(rt->find_device("reference")->compile(axpb_ir()).is_ok());
  }
  std::string entry = only_entry(cache);
  std::string bytes = read_file(entry).value();
  damage(bytes);
  REQUIRE(write_file_atomic(entry, bytes).is_ok());

  CapturedLog log;
  auto rt = open_runtime({reference_manifest()}, &log, cache);
  auto d = rt->find_device("reference");
  auto k = d->compile(axpb_ir());
  REQUIRE(k.is_ok());
  CHECK(k->cache_result() == TEGULA_CACHE_REBUILT);
  CHECK(rt->stats().plugin_compiles == 1);
  CHECK(rt->stats().cache_rejected == 1);
  CHECK(log.contains("compile cache: dropping " + entry + ": " + expected_reason));
  // The rebuilt entry is whole again: the next compile hits.
  CHECK(d->compile(axpb_ir())->cache_result() == TEGULA_CACHE_HIT);
  auto x = d->alloc(12);
  auto y = d->alloc(12);
  REQUIRE(x->write(std::vector<float>{1, 2, 3}).is_ok());
  REQUIRE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(10), Arg::number(1), Arg::integer(3)}).is_ok());
  CHECK(y->read<float>(3).value() == std::vector<float>{11, 21, 31});
}

}  // namespace

TEST_CASE("damaged entries are rebuilt") {
  damage_and_rebuild("truncated", [](std::string& b) { b.resize(b.size() - 10); }, "payload is");
  damage_and_rebuild("payload_byte", [](std::string& b) { b[b.size() - 3] ^= 0x01; }, "payload digest mismatch");
  damage_and_rebuild("header_magic", [](std::string& b) { b[0] ^= 0x20; }, "bad magic");
  damage_and_rebuild("header_length", [](std::string& b) { b[16] ^= 0x01; }, "payload is");
  damage_and_rebuild("header_digest", [](std::string& b) { b[30] ^= 0x80; }, "payload digest mismatch");
  damage_and_rebuild("header_version", [](std::string& b) { b[8] = 3; }, "entry format 3, expected 4");
  damage_and_rebuild("zero_length", [](std::string& b) { b.clear(); }, "shorter than the entry header (0 bytes)");
  damage_and_rebuild("short_header", [](std::string& b) { b.resize(40); }, "shorter than the entry header (40 bytes)");
  damage_and_rebuild("other_key", [](std::string& b) { b[runtime::kCacheEntryKeyAt + 4] ^= 0x01; },
                     "the entry belongs to another key");
  // Facts that do not decode, in an entry whose header, digest and binding are all right.
  damage_and_rebuild("facts", [](std::string& b) {
    static const char* hex = "0123456789abcdef";
    std::string key;
    const size_t key_at = runtime::kCacheEntryKeyAt, header = runtime::kCacheEntryHeaderBytes;
    for (size_t i = key_at; i < key_at + 32; ++i) key += std::string{hex[uint8_t(b[i]) >> 4], hex[uint8_t(b[i]) & 15]};
    size_t binding_length = size_t(uint8_t(b[12])) | size_t(uint8_t(b[13])) << 8;
    std::string binding = b.substr(header, binding_length);
    std::string payload = b.substr(header + binding_length);
    REQUIRE(payload.compare(8, 7, "facts 1") == 0);
    payload[8] = 'F';
    b = runtime::encode_cache_entry(key, payload, binding);
  }, "kernel facts, line 1: not kernel facts of format 1");
}

}  // namespace compile_cache_corrupt_test
