// Misuse: broken manifests in a plugin folder are logged with file, JSON path and cause,
// and skipped; the good manifests in the same folder still load.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace bad_manifests_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("bad manifests beside a good one") {
  std::string dir = scratch_dir("bad_manifests");
  REQUIRE(write_file_atomic(dir + "/a_bad_json.json", "{\"file_format_version\": \"1.0.0\",\n  \"plugin\": }").is_ok());
  REQUIRE(write_file_atomic(dir + "/b_empty.json", "").is_ok());
  REQUIRE(write_file_atomic(dir + "/c_not_a_manifest.json", "[]").is_ok());
  REQUIRE(write_file_atomic(dir + "/d_notes.txt", "ignored: not .json").is_ok());
  write_manifest(dir, "reference", plugin_library("reference"));
  write_manifest(dir, "typo", "libx.so", ", \"libary_arch\": \"x86_64\"");

  CapturedLog log;
  auto rt = open_runtime({dir}, &log);
  REQUIRE(rt.is_ok());
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
  auto skipped = rt->skipped();
  REQUIRE(skipped.size() == 4);
  CHECK(skipped[0].source == dir + "/a_bad_json.json");
  CHECK(skipped[0].reason.find(dir + "/a_bad_json.json:2:") == 0);
  CHECK(skipped[0].reason.find("invalid JSON") != std::string::npos);
  CHECK(skipped[1].reason.find("invalid JSON") != std::string::npos);
  CHECK(skipped[2].reason == dir + "/c_not_a_manifest.json: (root): expected an object, got an array");
  CHECK(skipped[3].reason == dir + "/typo.json: plugin.libary_arch: unknown key (file format 1.0 defines no such field)");
  for (const Skipped& s : skipped) CHECK(log.contains("skipping " + s.reason));
}

TEST_CASE("a manifest path that does not exist is only a debug line") {
  CapturedLog log;
  auto rt = open_runtime({"/nonexistent/plugins.d", reference_manifest()}, &log);
  REQUIRE(rt.is_ok());
  CHECK(rt->skipped().empty());
  CHECK(log.contains("3 searching /nonexistent/plugins.d (runtime options): not found"));
}

}  // namespace bad_manifests_test
