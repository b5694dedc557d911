// The plugin search path: its order, the XDG defaults, and how TEGULA_PLUGINS,
// TEGULA_ADD_PLUGINS and an explicit manifest list change it.
#include <doctest/doctest.h>

#include "runtime/SearchPath.h"

namespace search_path_test {

using namespace tegula::runtime;

namespace {

std::vector<std::string> paths(const SearchInputs& in) {
  std::vector<std::string> out;
  for (const SearchEntry& e : plugin_search_path(in)) out.push_back(e.path);
  return out;
}

SearchInputs base() {
  SearchInputs in;
  in.exe_dir = "/opt/t/bin";
  in.install_datadir = "/usr/local/share";
  return in;
}

}  // namespace

TEST_CASE("the default order: exe-relative, install prefix, XDG_DATA_HOME, XDG_DATA_DIRS") {
  SearchInputs in = base();
  in.env.set("HOME", "/home/u");
  CHECK(paths(in) == std::vector<std::string>{"/opt/t/bin/../share/tegula/plugins.d",
                                              "/usr/local/share/tegula/plugins.d",
                                              "/home/u/.local/share/tegula/plugins.d",
                                              "/usr/local/share/tegula/plugins.d", "/usr/share/tegula/plugins.d"});
}

TEST_CASE("XDG variables replace their defaults; relative XDG_DATA_DIRS entries are ignored") {
  SearchInputs in = base();
  in.env.set("HOME", "/home/u").set("XDG_DATA_HOME", "/xdg/home").set("XDG_DATA_DIRS", "/a:relative::/b");
  CHECK(paths(in) == std::vector<std::string>{"/opt/t/bin/../share/tegula/plugins.d",
                                              "/usr/local/share/tegula/plugins.d", "/xdg/home/tegula/plugins.d",
                                              "/a/tegula/plugins.d", "/b/tegula/plugins.d"});
}

TEST_CASE("no HOME and no XDG_DATA_HOME: that entry is left out") {
  SearchInputs in = base();
  in.exe_dir = "";
  CHECK(paths(in) == std::vector<std::string>{"/usr/local/share/tegula/plugins.d",
                                              "/usr/local/share/tegula/plugins.d", "/usr/share/tegula/plugins.d"});
}

TEST_CASE("TEGULA_PLUGINS replaces the search; TEGULA_ADD_PLUGINS comes first") {
  SearchInputs in = base();
  in.env.set("TEGULA_PLUGINS", "/p/a.json:/p/dir").set("TEGULA_ADD_PLUGINS", "/add");
  CHECK(paths(in) == std::vector<std::string>{"/add", "/p/a.json", "/p/dir"});
  in.env.set("TEGULA_PLUGINS", "");
  CHECK(paths(in).size() == 5);  // an empty variable counts as unset
}

TEST_CASE("an explicit list replaces the search and TEGULA_PLUGINS") {
  SearchInputs in = base();
  in.env.set("TEGULA_PLUGINS", "/p");
  in.has_explicit = true;
  in.explicit_paths = {"/x.json"};
  CHECK(paths(in) == std::vector<std::string>{"/x.json"});
  in.explicit_paths.clear();
  CHECK(paths(in).empty());
}

TEST_CASE("split_list drops empty items") {
  CHECK(split_list("a::b:", ':') == std::vector<std::string>{"a", "b"});
  CHECK(split_list("", ':').empty());
}

TEST_CASE("the library's own folder and the package built against come first, before the executable's") {
  SearchInputs in = base();
  in.library_dir = "/moved/prefix/lib";
  in.package_datadir = "/moved/prefix/share";
  CHECK(paths(in) == std::vector<std::string>{"/moved/prefix/lib/../share/tegula/plugins.d",
                                              "/moved/prefix/share/tegula/plugins.d",
                                              "/opt/t/bin/../share/tegula/plugins.d",
                                              "/usr/local/share/tegula/plugins.d",
                                              "/usr/local/share/tegula/plugins.d", "/usr/share/tegula/plugins.d"});
  std::vector<SearchEntry> entries = plugin_search_path(in);
  CHECK(entries[0].origin == "next to the tegula library");
  CHECK(entries[1].origin == "the CMake package built against");
  // TEGULA_PLUGINS still replaces them all.
  in.env.set("TEGULA_PLUGINS", "/p");
  CHECK(paths(in) == std::vector<std::string>{"/p"});
}

}  // namespace search_path_test
