// In a setuid/setgid process every environment variable is ignored: TEGULA_PLUGINS cannot
// make a privileged program load a library, nor TEGULA_CACHE_DIR move its cache.
#include <doctest/doctest.h>

#include "runtime/CompileCache.h"
#include "runtime/Env.h"
#include "runtime/SearchPath.h"

namespace secure_environment_test {

using namespace tegula::runtime;

TEST_CASE("a secure process's Env has no variables") {
  ::setenv("TEGULA_PLUGINS", "/evil", 1);
  Env secure = Env::secure_process();
  CHECK(secure.secure());
  CHECK(secure.get("TEGULA_PLUGINS") == nullptr);
  CHECK(Env::process().get("TEGULA_PLUGINS") != nullptr);  // this test process is not setuid
  ::unsetenv("TEGULA_PLUGINS");
  CHECK_FALSE(process_is_secure());
}

TEST_CASE("with a secure Env the search path is the system's only") {
  SearchInputs in;
  in.env = Env::secure_process();
  in.exe_dir = "/opt/t/bin";
  in.install_datadir = "/usr/local/share";
  std::vector<SearchEntry> path = plugin_search_path(in);
  for (const SearchEntry& e : path) {
    CHECK(e.path.find("/evil") == std::string::npos);
    CHECK(e.origin.find("TEGULA") == std::string::npos);
  }
  CHECK(path.size() == 4);  // exe-relative, prefix, the two default XDG_DATA_DIRS
}

TEST_CASE("with a secure Env there is no cache folder (no HOME to put it in)") {
  CHECK(resolve_cache_dir(nullptr, Env::secure_process()) == "");
}

}  // namespace secure_environment_test
