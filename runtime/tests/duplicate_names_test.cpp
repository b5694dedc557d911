// Two manifests with the same plugin name: the first found wins, the other is logged and
// skipped (so a user's ~/.local copy can shadow a system one, predictably). A first one that
// fails to load does not hide the next: it is recorded with its reason and the next is tried.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace duplicate_names_test {

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
  CHECK(skipped[0].reason == "duplicate plugin name 'reference': " + winner + " wins (it loaded)");
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

TEST_CASE("a first manifest that fails to load falls through to the next of the name") {
  std::string first = scratch_dir("duplicate_broken_first");
  std::string second = scratch_dir("duplicate_working_second");
  std::string broken = write_manifest(first, "reference", "libtegula_missing.so");
  std::string working = write_manifest(second, "reference", plugin_library("reference"));
  CapturedLog log;
  auto rt = open_runtime({first, second}, &log);
  REQUIRE(rt.is_ok());
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
  auto skipped = rt->skipped();
  REQUIRE(skipped.size() == 1);
  CHECK(skipped[0].source == broken);
  CHECK(skipped[0].reason.find("not found") != std::string::npos);
  CHECK(log.contains("trying " + working));
  CHECK(log.contains("plugin 'reference': using " + working));
}

TEST_CASE("when every manifest of a name fails, each failure is recorded") {
  std::string first = scratch_dir("duplicate_broken_a");
  std::string second = scratch_dir("duplicate_broken_b");
  std::string a = write_manifest(first, "reference", "libtegula_missing_a.so");
  std::string b = write_manifest(second, "reference", "libtegula_missing_b.so");
  auto rt = open_runtime({first, second});
  REQUIRE(rt.is_ok());
  CHECK(device_names(*rt).empty());
  auto skipped = rt->skipped();
  REQUIRE(skipped.size() == 2);
  CHECK(skipped[0].source == a);
  CHECK(skipped[1].source == b);
}

}  // namespace duplicate_names_test
