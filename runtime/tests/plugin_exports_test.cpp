// Plugins export exactly one symbol, tg_plugin_query: tegula_ir and everything else linked
// into them stays local, so plugins cannot interpose each other's or the host's symbols.
#include <doctest/doctest.h>

#include <dlfcn.h>

#include <sstream>

#include "runtime/tests/TestSupport.h"

namespace plugin_exports_test {

using namespace tegula::testing;

namespace {

std::vector<std::string> dynamic_symbols(const std::string& library) {
  std::string out;
  int rc = run_command("nm -D --defined-only '" + library + "'", &out);
  REQUIRE(rc == 0);
  std::vector<std::string> symbols;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    size_t space = line.rfind(' ');
    if (space != std::string::npos) symbols.push_back(line.substr(space + 1));
  }
  return symbols;
}

}  // namespace

TEST_CASE("the shipped plugins export only tg_plugin_query") {
  for (const char* plugin : {"reference", "null"}) {
    INFO(plugin);
    CHECK(dynamic_symbols(plugin_library(plugin)) == std::vector<std::string>{"tg_plugin_query"});
  }
}

TEST_CASE("an internal symbol cannot be found with dlsym") {
  void* handle = ::dlopen(plugin_library("reference").c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(handle);
  CHECK(::dlsym(handle, "tg_plugin_query") != nullptr);
  // ir::parse_kernel, linked in statically from tegula_ir, by its mangled name.
  CHECK(::dlsym(handle, "_ZN6tegula2ir12parse_kernelESt17basic_string_viewIcSt11char_traitsIcEERKNSt7__cxx1112basic_stringIcS4_SaIcEEE") == nullptr);
  ::dlclose(handle);
}

}  // namespace plugin_exports_test
