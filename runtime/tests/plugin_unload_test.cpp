// The unload rule: a library refused before or during init is dlclose'd; one whose init
// succeeded stays loaded after shutdown, unless its manifest says "allow_unload": true.
#include <doctest/doctest.h>

#include <dlfcn.h>

#include "runtime/tests/TestSupport.h"

namespace plugin_unload_test {

using namespace tegula::testing;

namespace {

bool is_loaded(const std::string& library) {
  void* h = ::dlopen(library.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (h) ::dlclose(h);
  return h != nullptr;
}

}  // namespace

TEST_CASE("a plugin refused during init is unloaded") {
  auto rt = open_runtime({test_manifest("init_fails")});
  REQUIRE(rt.is_ok());
  CHECK_FALSE(is_loaded(plugin_library("init_fails")));
}

TEST_CASE("a plugin that initialised stays loaded after the runtime closes") {
  { auto rt = open_runtime({test_manifest("count_fails")}); }  // init ok, then refused
  CHECK(is_loaded(plugin_library("count_fails")));
  {
    auto rt = open_runtime({test_manifest("abi_newer")});
    REQUIRE(rt.is_ok());
  }
  CHECK(is_loaded(plugin_library("abi_newer")));
}

TEST_CASE("a plugin whose manifest allows it is unloaded after shutdown") {
  std::string dir = scratch_dir("allow_unload");
  std::string m = write_manifest(dir, "unloadable", plugin_library("unloadable"), ", \"allow_unload\": true");
  {
    auto rt = open_runtime({m});
    REQUIRE(rt.is_ok());
    CHECK(device_names(*rt) == std::vector<std::string>{"unloadable:0"});
    CHECK(is_loaded(plugin_library("unloadable")));
  }
  CHECK_FALSE(is_loaded(plugin_library("unloadable")));
}

}  // namespace plugin_unload_test
