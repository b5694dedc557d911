// Valid manifests parse into the fields the loader needs; relative library paths resolve
// against the manifest's folder, absolute ones stay.
#include <doctest/doctest.h>

#include "runtime/Manifest.h"

namespace manifest_parse_test {

using namespace tegula::runtime;

TEST_CASE("a complete manifest parses") {
  auto m = parse_manifest(R"({"file_format_version": "1.0.0", "plugin": {"name": "cuda",
      "library_path": "libtegula_cuda.so", "abi_min": 1, "abi_max": 3, "library_arch": "x86_64",
      "allow_unload": true}})",
                          "/etc/tegula/plugins.d/cuda.json");
  REQUIRE(m.is_ok());
  CHECK(m->name == "cuda");
  CHECK(m->library_path == "libtegula_cuda.so");
  CHECK(m->library == "/etc/tegula/plugins.d/libtegula_cuda.so");
  CHECK(m->abi_min == 1);
  CHECK(m->abi_max == 3);
  CHECK(m->library_arch == "x86_64");
  CHECK(m->allow_unload);
  CHECK(m->ignored_keys.empty());
}

TEST_CASE("optional fields default") {
  auto m = parse_manifest(R"({"file_format_version": "1.0.0", "plugin": {"name": "a_1",
      "library_path": "/opt/x/liba.so", "abi_min": 1, "abi_max": 1}})",
                          "dir/a.json");
  REQUIRE(m.is_ok());
  CHECK(m->library == "/opt/x/liba.so");
  CHECK(m->library_arch.empty());
  CHECK_FALSE(m->allow_unload);
}

TEST_CASE("relative paths resolve against the manifest's folder") {
  auto m = parse_manifest(R"({"file_format_version": "1.0.0", "plugin": {"name": "a",
      "library_path": "../../lib/liba.so", "abi_min": 1, "abi_max": 1}})",
                          "build/share/plugins.d/a.json");
  REQUIRE(m.is_ok());
  CHECK(m->library == "build/share/plugins.d/../../lib/liba.so");
}

TEST_CASE("a later 1.N format may add keys, which are ignored and reported") {
  auto m = parse_manifest(R"({"file_format_version": "1.2.0", "extra": 1, "plugin": {"name": "a",
      "library_path": "liba.so", "abi_min": 1, "abi_max": 1, "priority": 5}})",
                          "a.json");
  REQUIRE(m.is_ok());
  CHECK(m->ignored_keys == std::vector<std::string>{"extra", "plugin.priority"});
}

}  // namespace manifest_parse_test
