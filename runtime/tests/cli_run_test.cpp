// tegula run: any device through the runtime API, with the direct-computation check. Only
// the build tree's reference plugin is loaded (TEGULA_PLUGINS), unless a test adds one.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace cli_run_test {

using namespace tegula::testing;

namespace {

std::string tegula_cli(const std::string& args, int* rc, const std::string& env = "") {
  std::string out;
  *rc = run_command("env -u TEGULA_PLUGINS -u TEGULA_ADD_PLUGINS -u TEGULA_SELECT_PLUGINS -u TEGULA_DISABLE_PLUGINS "
                    "TEGULA_CACHE_DIR=off TEGULA_PLUGINS=" + reference_manifest() + " " + env + " " + tegula_exe() + " " + args,
                    &out);
  return out;
}

}  // namespace

TEST_CASE("run on the default device and on a named one") {
  int rc = -1;
  // Only the reference plugin (TEGULA_PLUGINS above): with other backends built (the vulkan
  // plugin finds lavapipe, a CPU device, which the default prefers to the reference model)
  // the default device would differ.
  std::string out = tegula_cli("run " + example("elementwise/silu_mul.tile") + " --bind N=1000 --seed 3", &rc);
  CHECK(rc == 0);
  CHECK(out.find("ran silu_mul on reference:0 (seed 3)") != std::string::npos);
  CHECK(out.find("PASS") != std::string::npos);
  out = tegula_cli("run " + example("gemm/gemm_bf16.tile") + " --device reference --bind M=32,N=64,K=32", &rc);
  CHECK(rc == 0);
  CHECK(out.find("PASS") != std::string::npos);
}

TEST_CASE("misuse: an unknown device lists the available ones") {
  int rc = -1;
  std::string out = tegula_cli("run " + example("elementwise/silu_mul.tile") + " --device cuda:0 --bind N=10", &rc);
  CHECK(rc == 1);
  CHECK(out.find("tegula run: no device 'cuda:0'; available: reference:0") != std::string::npos);
  out = tegula_cli("run " + example("elementwise/silu_mul.tile") + " --bind N=10", &rc, "TEGULA_PLUGINS=/nonexistent");
  CHECK(rc == 1);
  CHECK(out.find("tegula run: no devices") != std::string::npos);
}

TEST_CASE("misuse: a device that cannot compile") {
  int rc = -1;
  std::string out = tegula_cli("run " + example("elementwise/silu_mul.tile") + " --device abi_newer --bind N=10", &rc,
                               "TEGULA_ADD_PLUGINS=" + test_manifest("abi_newer"));
  CHECK(rc == 1);
  CHECK(out.find("abi_newer: compile: test plugins do not compile") != std::string::npos);
}

}  // namespace cli_run_test
