// A kernel compiled once is loaded from the cache afterwards, in this runtime and in the
// next, without calling the plugin's compiler again; different options are a different entry.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace compile_cache_hit_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("a cache hit avoids the plugin's compile") {
  std::string cache = scratch_dir("cache_hit");
  {
    auto rt = open_runtime({reference_manifest()}, nullptr, cache);
    REQUIRE(rt.is_ok());
    CHECK(std::string(tegula_runtime_cache_dir(rt->handle())) == cache);
    auto d = rt->find_device("reference");
    auto first = d->compile(axpb_ir());
    REQUIRE(first.is_ok());
    CHECK(first->cache_result() == TEGULA_CACHE_MISS);
    auto second = d->compile(axpb_ir());
    REQUIRE(second.is_ok());
    CHECK(second->cache_result() == TEGULA_CACHE_HIT);
    CHECK(rt->stats().plugin_compiles == 1);
    CHECK(rt->stats().cache_hits == 1);
    CHECK(rt->stats().cache_misses == 1);
  }
  {
    // A new runtime (as a new process would): still no compile.
    auto rt = open_runtime({reference_manifest()}, nullptr, cache);
    auto k = rt->find_device("reference")->compile(axpb_ir());
    REQUIRE(k.is_ok());
    CHECK(k->cache_result() == TEGULA_CACHE_HIT);
    CHECK(rt->stats().plugin_compiles == 0);
    // And it runs.
    auto d = rt->find_device("reference");
    auto x = d->alloc(8);
    auto y = d->alloc(8);
    REQUIRE(x->write(std::vector<float>{1, 2}).is_ok());
    REQUIRE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(2), Arg::number(0), Arg::integer(2)}).is_ok());
    CHECK(y->read<float>(2).value() == std::vector<float>{2, 4});
  }
}

TEST_CASE("bypassing the cache, and a cache that is off") {
  std::string cache = scratch_dir("cache_bypass");
  auto rt = open_runtime({reference_manifest()}, nullptr, cache);
  CompileOptions no_cache;
  no_cache.use_cache = false;
  auto d = rt->find_device("reference");
  CHECK(d->compile(axpb_ir(), no_cache)->cache_result() == TEGULA_CACHE_DISABLED);
  CHECK(d->compile(axpb_ir(), no_cache)->cache_result() == TEGULA_CACHE_DISABLED);
  CHECK(rt->stats().plugin_compiles == 2);
  CHECK_FALSE(file_exists(cache + "/kernels-v1"));

  auto off = open_runtime({reference_manifest()}, nullptr, "off");
  CHECK(tegula_runtime_cache_dir(off->handle()) == nullptr);
  CHECK(off->find_device("reference")->compile(axpb_ir())->cache_result() == TEGULA_CACHE_DISABLED);
}

TEST_CASE("an unwritable cache folder is not an error") {
  CapturedLog log;
  auto rt = open_runtime({reference_manifest()}, &log, "/proc/tegula-cannot-write-here");
  auto k = rt->find_device("reference")->compile(axpb_ir());
  REQUIRE(k.is_ok());
  CHECK(log.contains("compile cache: cannot store"));
}

}  // namespace compile_cache_hit_test
