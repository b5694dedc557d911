// An entry whose integrity checks pass but whose bytes the plugin refuses (TG_ERR_CORRUPT
// from executable_load: a stale format, a foreign plugin's bytes) is deleted and rebuilt too.
#include <doctest/doctest.h>

#include "runtime/CompileCache.h"
#include "runtime/KernelFacts.h"
#include "runtime/tests/TestSupport.h"

namespace compile_cache_plugin_refusal_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("executable_load answering TG_ERR_CORRUPT triggers a rebuild") {
  std::string cache = scratch_dir("cache_plugin_refusal");
  std::string entry;
  {
    auto rt = open_runtime({reference_manifest()}, nullptr, cache);
    REQUIRE(rt->find_device("reference")->compile(axpb_ir()).is_ok());
  }
  std::string out;
  REQUIRE(run_command("ls " + cache + "/kernels-v1/*.bin", &out) == 0);
  entry = out.substr(0, out.find('\n'));
  std::string key = entry.substr(entry.rfind('/') + 1, 64);
  // A well-formed entry (right digest, right key, the binding the request records, the
  // kernel's facts) holding bytes the reference plugin cannot read: the wrong executable magic.
  std::string original = read_file(entry).value();
  size_t binding_length = size_t(uint8_t(original[12])) | size_t(uint8_t(original[13])) << 8;
  std::string binding = original.substr(runtime::kCacheEntryHeaderBytes, binding_length);
  REQUIRE(binding.rfind("ir ", 0) == 0);
  auto cached = runtime::unpack_cached_kernel(original.substr(runtime::kCacheEntryHeaderBytes + binding_length), "axpb");
  REQUIRE_MESSAGE(cached.is_ok(), cached.status().str());
  auto payload = runtime::pack_cached_kernel(cached->facts, "not a reference executable");
  REQUIRE(payload.is_ok());
  REQUIRE(write_file_atomic(entry, runtime::encode_cache_entry(key, *payload, binding)).is_ok());

  CapturedLog log;
  auto rt = open_runtime({reference_manifest()}, &log, cache);
  auto k = rt->find_device("reference")->compile(axpb_ir());
  REQUIRE(k.is_ok());
  CHECK(k->cache_result() == TEGULA_CACHE_REBUILT);
  CHECK(rt->stats().plugin_compiles == 1);
  INFO(log.all());
  CHECK(log.contains("compile cache: dropping " + entry + ": the plugin refused it: reference: executable_load: reference executable: not a reference executable (26 bytes, shorter than the 56-byte header) (TG_ERR_CORRUPT)"));
  auto again = open_runtime({reference_manifest()}, nullptr, cache);
  CHECK(again->find_device("reference")->compile(axpb_ir())->cache_result() == TEGULA_CACHE_HIT);
}

}  // namespace compile_cache_plugin_refusal_test
