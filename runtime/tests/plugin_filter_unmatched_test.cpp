// Filters and searches that find nothing say so: a disable glob that matches no plugin (a
// misspelt name in TEGULA_DISABLE_PLUGINS disables nothing) and a search that finds no
// manifest are skipped entries naming what there is, and the CLI warns.
#include <doctest/doctest.h>

#include "runtime/Discovery.h"
#include "runtime/tests/CliSupport.h"

namespace plugin_filter_unmatched_test {

using namespace tegula::runtime;
using namespace tegula::testing;

TEST_CASE("a disable glob that matches no plugin is a skipped entry naming the plugins") {
  std::string dir = scratch_dir("plugin_filter_unmatched");
  for (const char* n : {"cuda", "vulkan"}) write_manifest(dir, n, "lib.so");
  SearchInputs in;
  in.has_explicit = true;
  in.explicit_paths = {dir};
  PluginFilter filter;
  filter.disable = {"vulcan,cuda"};
  filter.disable_origins = {"TEGULA_DISABLE_PLUGINS"};
  Discovery d = discover_plugins(in, filter, tegula::runtime::Log());
  REQUIRE(d.skipped.size() == 2);  // cuda disabled, and 'vulcan' matched nothing
  CHECK(d.skipped[0].plugin == "cuda");
  CHECK(d.skipped[1].source == "TEGULA_DISABLE_PLUGINS");
  CHECK(d.skipped[1].reason ==
        "'vulcan' matches no plugin, so it disables nothing (plugins found: cuda, vulkan)");
  REQUIRE(d.manifests.size() == 1);
  CHECK(d.manifests[0].name == "vulkan");
  // A glob that matches is not reported.
  filter.disable = {"vulk*"};
  CHECK(discover_plugins(in, filter, tegula::runtime::Log()).skipped.size() == 1);
}

TEST_CASE("through the environment and the CLI") {
  int rc = -1;
  std::string out = tegula_cli("devices", &rc, "TEGULA_DISABLE_PLUGINS=refrence");
  CHECK(rc == 0);
  CHECK(out.find("tegula devices: warning: TEGULA_DISABLE_PLUGINS: 'refrence' matches no plugin, so it disables "
                 "nothing (plugins found: reference)") != std::string::npos);
  CHECK(out.find("reference:0") != std::string::npos);
  out = tegula_cli("plugins", &rc, "TEGULA_DISABLE_PLUGINS=refrence");
  CHECK(out.find("TEGULA_DISABLE_PLUGINS: 'refrence' matches no plugin") != std::string::npos);
}

TEST_CASE("a search that finds no manifest names where it looked") {
  CapturedLog log;
  auto rt = open_runtime({"/nonexistent/plugins.d"}, &log);
  REQUIRE(rt.is_ok());
  CHECK(rt->devices().empty());
  std::string reason = skip_reason(*rt, "search path");
  CHECK(reason.find("no plugin manifests found; searched /nonexistent/plugins.d (runtime options)") == 0);
  CHECK(reason.find("set TEGULA_PLUGINS") != std::string::npos);
  int rc = -1;
  std::string out = tegula_cli("devices", &rc, "TEGULA_PLUGINS=/nonexistent/x");
  CHECK(out.find("warning: search path: no plugin manifests found; searched /nonexistent/x (TEGULA_PLUGINS)") !=
        std::string::npos);
}

}  // namespace plugin_filter_unmatched_test
