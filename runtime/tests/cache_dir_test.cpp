// Where the compile cache lives: the runtime option, else TEGULA_CACHE_DIR, else
// $XDG_CACHE_HOME/tegula, else ~/.cache/tegula; "off" turns it off.
#include <doctest/doctest.h>

#include "runtime/CompileCache.h"

namespace cache_dir_test {

using namespace tegula::runtime;

TEST_CASE("cache folder precedence") {
  Env env;
  CHECK(resolve_cache_dir(nullptr, env) == "");  // nowhere to put it
  env.set("HOME", "/home/u");
  CHECK(resolve_cache_dir(nullptr, env) == "/home/u/.cache/tegula");
  env.set("XDG_CACHE_HOME", "/xdg");
  CHECK(resolve_cache_dir(nullptr, env) == "/xdg/tegula");
  env.set("TEGULA_CACHE_DIR", "/explicit");
  CHECK(resolve_cache_dir(nullptr, env) == "/explicit");
  CHECK(resolve_cache_dir("/option", env) == "/option");
  env.set("TEGULA_CACHE_DIR", "off");
  CHECK(resolve_cache_dir(nullptr, env) == "");
  CHECK(resolve_cache_dir("off", env) == "");
}

}  // namespace cache_dir_test
