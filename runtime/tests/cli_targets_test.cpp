// tegula targets: the built-in descriptions, one described, or a device's own (the build
// tree's reference plugin only, named in TEGULA_PLUGINS).
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace cli_targets_test {

using namespace tegula::testing;

namespace {

std::string tegula_cli(const std::string& args, int* rc) {
  std::string out;
  *rc = run_command("env -u TEGULA_ADD_PLUGINS -u TEGULA_SELECT_PLUGINS -u TEGULA_DISABLE_PLUGINS TEGULA_CACHE_DIR=off "
                    "TEGULA_PLUGINS=" + reference_manifest() + " " + tegula_exe() + " " + args,
                    &out);
  return out;
}

}  // namespace

TEST_CASE("list and describe built-in targets") {
  int rc = -1;
  std::string out = tegula_cli("targets", &rc);
  CHECK(rc == 0);
  CHECK(out.find("sm_90a\n") != std::string::npos);
  CHECK(out.find("host_cpu\n") != std::string::npos);
  out = tegula_cli("targets sm_90a", &rc);
  CHECK(rc == 0);
  CHECK(out.find("sm_90a") == 0);
  CHECK(out.find("wgmma") != std::string::npos);
}

TEST_CASE("a device's own target description") {
  int rc = -1;
  std::string out = tegula_cli("targets --device reference:0", &rc);
  CHECK(rc == 0);
  CHECK(out.find("reference (version 1)") == 0);
  CHECK(out.find("fma.scalar") != std::string::npos);
}

TEST_CASE("misuse: unknown target, unknown device") {
  int rc = -1;
  std::string out = tegula_cli("targets sm_1000", &rc);
  CHECK(rc == 1);
  CHECK(out.find("no built-in target 'sm_1000'; built in: ") != std::string::npos);
  out = tegula_cli("targets --device cuda:3", &rc);
  CHECK(rc == 1);
  CHECK(out.find("tegula targets: no device 'cuda:3'; available: reference:0") != std::string::npos);
}

}  // namespace cli_targets_test
