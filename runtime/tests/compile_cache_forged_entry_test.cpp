// An executable is bound to what it was compiled from: kernel B's entry copied under kernel
// A's key, with the key field rewritten and the header consistent, is refused (the lowered
// IR it records is B's) and A is recompiled, computing A's results, never B's.
#include <doctest/doctest.h>

#include "runtime/CompileCache.h"
#include "runtime/tests/TestSupport.h"

namespace compile_cache_forged_entry_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

/// axpb with the roles of a and b swapped: same signature, different results.
std::string bxpa_ir() {
  std::string text = axpb_ir();
  size_t at = text.find("x * a + b");
  REQUIRE(at != std::string::npos);
  return text.replace(at, 9, "x * b + a");
}

std::string only_new_entry(const std::string& cache, const std::string& except) {
  std::string out;
  REQUIRE(run_command("ls " + cache + "/kernels-v1/*.bin", &out) == 0);
  std::string found;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    std::string line = out.substr(start, end - start);
    if (!line.empty() && line != except) found = line;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  REQUIRE(!found.empty());
  return found;
}

}  // namespace

TEST_CASE("kernel B's executable under kernel A's key is refused and A is recompiled") {
  std::string cache = scratch_dir("cache_forged");
  std::string entry_a, entry_b;
  {
    auto rt = open_runtime({reference_manifest()}, nullptr, cache);
    REQUIRE(rt->find_device("reference")->compile(axpb_ir()).is_ok());
    entry_a = only_new_entry(cache, "");
    REQUIRE(rt->find_device("reference")->compile(bxpa_ir()).is_ok());
    entry_b = only_new_entry(cache, entry_a);
  }
  // The forgery: B's bytes, with A's key in the key field, written under A's name.
  std::string bytes = read_file(entry_b).value();
  std::string key_a = entry_a.substr(entry_a.rfind('/') + 1, 64);
  for (size_t i = 0; i < 32; ++i) bytes[runtime::kCacheEntryKeyAt + i] = char(std::stoi(key_a.substr(2 * i, 2), nullptr, 16));
  REQUIRE(write_file_atomic(entry_a, bytes).is_ok());
  REQUIRE(::chmod(entry_a.c_str(), 0600) == 0);

  CapturedLog log;
  auto rt = open_runtime({reference_manifest()}, &log, cache);
  auto d = rt->find_device("reference");
  auto k = d->compile(axpb_ir());
  REQUIRE(k.is_ok());
  CHECK(k->cache_result() == TEGULA_CACHE_REBUILT);
  CHECK(rt->stats().plugin_compiles == 1);
  CHECK(log.contains("compile cache: dropping " + entry_a +
                     ": the executable was compiled from something else than this request (ir differs)"));
  auto x = d->alloc(12);
  auto y = d->alloc(12);
  REQUIRE(x->write(std::vector<float>{1, 2, 3}).is_ok());
  REQUIRE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(10), Arg::number(1), Arg::integer(3)}).is_ok());
  CHECK(y->read<float>(3).value() == std::vector<float>{11, 21, 31});  // a*x + b, not b*x + a
}

TEST_CASE("an entry records its origin, and each part of it is checked") {
  runtime::CacheKeyParts parts;
  parts.ir = "kernel k() grid(1) threads(1) {}";
  parts.lowering = "aligned 1 raster 0 divisibility";
  parts.runtime_build = "build-id 01";
  parts.target_hash = "t";
  parts.plugin_name = "reference";
  parts.plugin_version = "0.1.0";
  parts.abi_version = 1;
  parts.plugin_build = "build-1";
  std::string key = runtime::cache_key(parts);
  std::string entry = runtime::encode_cache_entry(key, "exe", runtime::cache_binding(parts));
  CHECK(runtime::decode_cache_entry(key, entry, runtime::cache_binding(parts)).value() == "exe");
  auto refused_for = [&](runtime::CacheKeyParts other, const std::string& part) {
    auto r = runtime::decode_cache_entry(key, entry, runtime::cache_binding(other));
    REQUIRE_FALSE(r.is_ok());
    CHECK(r.status().code() == ErrorCode::Corrupt);
    CHECK(r.status().message().find("(" + part + " differs)") != std::string::npos);
  };
  runtime::CacheKeyParts p = parts;
  p.ir += " ";
  refused_for(p, "ir");
  p = parts;
  p.lowering += " N=16";
  refused_for(p, "lowering");
  p = parts;
  p.runtime_build = "build-id 02";
  refused_for(p, "runtime");
  p = parts;
  p.target_hash = "u";
  refused_for(p, "target");
  p = parts;
  p.plugin_build = "build-2";
  refused_for(p, "build");
  p = parts;
  p.options = "-O0";
  refused_for(p, "options");
}

}  // namespace compile_cache_forged_entry_test
