// A plugin rebuilt in place (same name and version string, new library file) never loads
// executables that the earlier build put in the cache: the library's identity is part of
// the key.
#include <doctest/doctest.h>

#include <cstdlib>

#include "runtime/tests/TestSupport.h"

namespace compile_cache_rebuilt_plugin_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

tegula_cache_result compile_once(const std::string& manifest, const std::string& cache) {
  auto rt = open_runtime({manifest}, nullptr, cache);
  REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
  auto k = rt->find_device("reference")->compile(axpb_ir());
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return k->cache_result();
}

}  // namespace

TEST_CASE("a rebuilt plugin misses the cache entries of the earlier build") {
  std::string dir = scratch_dir("cache_rebuilt_plugin");
  std::string cache = dir + "/cache";
  std::string library = dir + "/libtegula_reference.so";
  std::string copy = "cp '" + plugin_library("reference") + "' '" + library + "'";
  REQUIRE(std::system(copy.c_str()) == 0);
  std::string manifest = write_manifest(dir, "reference", library);

  CHECK(compile_once(manifest, cache) == TEGULA_CACHE_MISS);
  CHECK(compile_once(manifest, cache) == TEGULA_CACHE_HIT);
  // "Rebuild": a new file moved over the old one, as a linker or an install does.
  std::string rebuild = "cp '" + plugin_library("reference") + "' '" + library + ".new' && mv '" + library + ".new' '" + library + "'";
  REQUIRE(std::system(rebuild.c_str()) == 0);
  CHECK(compile_once(manifest, cache) == TEGULA_CACHE_MISS);
  CHECK(compile_once(manifest, cache) == TEGULA_CACHE_HIT);
}

}  // namespace compile_cache_rebuilt_plugin_test
