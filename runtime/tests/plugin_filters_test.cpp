// TEGULA_SELECT_PLUGINS / TEGULA_DISABLE_PLUGINS (and the same options): comma-separated
// fnmatch globs over plugin names, applied before anything is loaded.
#include <doctest/doctest.h>

#include "runtime/Discovery.h"
#include "runtime/tests/TestSupport.h"

namespace plugin_filters_test {

using namespace tegula::runtime;
using tegula::testing::scratch_dir;
using tegula::testing::write_manifest;

namespace {

std::vector<std::string> names(const Discovery& d) {
  std::vector<std::string> out;
  for (const Manifest& m : d.manifests) out.push_back(m.name);
  return out;
}

Discovery discover(const std::string& dir, PluginFilter filter) {
  SearchInputs in;
  in.has_explicit = true;
  in.explicit_paths = {dir};
  return discover_plugins(in, filter, Log());
}

}  // namespace

TEST_CASE("globs select and disable by plugin name") {
  std::string dir = scratch_dir("plugin_filters");
  for (const char* n : {"cuda", "cuda_next", "hip", "vulkan"}) write_manifest(dir, n, "lib.so");

  CHECK(names(discover(dir, {})) == std::vector<std::string>{"cuda", "cuda_next", "hip", "vulkan"});
  CHECK(names(discover(dir, {{"cuda*"}, {}})) == std::vector<std::string>{"cuda", "cuda_next"});
  CHECK(names(discover(dir, {{"hip,vulk?n"}, {}})) == std::vector<std::string>{"hip", "vulkan"});
  CHECK(names(discover(dir, {{}, {"cuda_*,hip"}})) == std::vector<std::string>{"cuda", "vulkan"});
  // Disable wins over select; several lists must all agree.
  CHECK(names(discover(dir, {{"cuda*"}, {"cuda"}})) == std::vector<std::string>{"cuda_next"});
  CHECK(names(discover(dir, {{"cuda*", "*next"}, {}})) == std::vector<std::string>{"cuda_next"});

  Discovery d = discover(dir, {{}, {"hip"}});
  REQUIRE(d.skipped.size() == 1);
  CHECK(d.skipped[0].plugin == "hip");
  CHECK(d.skipped[0].reason == "plugin 'hip' disabled (disable globs \"hip\")");
}

TEST_CASE("the environment variables reach the filter through the runtime") {
  std::string dir = scratch_dir("plugin_filters_env");
  write_manifest(dir, "reference", tegula::testing::plugin_library("reference"));
  write_manifest(dir, "null", tegula::testing::plugin_library("null"));
  ::setenv("TEGULA_PLUGINS", dir.c_str(), 1);
  ::setenv("TEGULA_DISABLE_PLUGINS", "ref*", 1);
  auto rt = tegula::Runtime::open(tegula::RuntimeOptions{std::nullopt, "", "", "off"});
  ::unsetenv("TEGULA_PLUGINS");
  ::unsetenv("TEGULA_DISABLE_PLUGINS");
  REQUIRE(rt.is_ok());
  CHECK(tegula_runtime_plugin_count(rt->handle()) == 1);
  CHECK(tegula::testing::skip_reason(*rt, "reference").find("disabled") != std::string::npos);
}

TEST_CASE("matches_glob_list") {
  CHECK(matches_glob_list("a,b*", "bee"));
  CHECK_FALSE(matches_glob_list("a,b*", "cee"));
  CHECK_FALSE(matches_glob_list("", "a"));
}

}  // namespace plugin_filters_test
