// Two manifests with the same plugin name: the first found wins, the other is logged and
// skipped (so a user's ~/.local copy can shadow a system one, predictably).
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

using namespace tegula::testing;

TEST_CASE("the first manifest of a name wins") {
  std::string first = scratch_dir("duplicate_first");
  std::string second = scratch_dir("duplicate_second");
  std::string winner = write_manifest(first, "reference", plugin_library("reference"));
  std::string loser = write_manifest(second, "reference", plugin_library("does_not_matter"));
  CapturedLog log;
  auto rt = open_runtime({first, second}, &log);
  REQUIRE(rt.is_ok());
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
  auto skipped = rt->skipped();
  REQUIRE(skipped.size() == 1);
  CHECK(skipped[0].source == loser);
  CHECK(skipped[0].reason == "duplicate plugin name 'reference' (already found in " + winner + ")");
  CHECK(log.contains("skipping " + loser + ": duplicate plugin name 'reference'"));
}

TEST_CASE("the same manifest reached twice is read once, not reported as a duplicate") {
  std::string dir = scratch_dir("duplicate_same_file");
  std::string m = write_manifest(dir, "reference", plugin_library("reference"));
  auto rt = open_runtime({m, dir, dir + "/../" + dir.substr(dir.rfind('/') + 1)});
  REQUIRE(rt.is_ok());
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
  CHECK(rt->skipped().empty());
}
