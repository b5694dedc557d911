// tegula tune measures the ranking's best candidates of a tunable kernel, records the
// fastest that passes its check in the compile cache, and a second run finds it there
// without measuring; tegula run then launches the recorded binding, tegula check verifies
// every candidate and tegula lower --explain says what the ranking chose and why. The tune
// runs on the CPU device where the build has one (a small gemm), else on the reference
// device.
#include <doctest/doctest.h>

#include "core/Files.h"
#include "runtime/tests/CliSupport.h"

namespace cli_tune_test {

using namespace tegula::testing;

namespace {

std::string cpu_manifest() { return std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/cpu.json"; }

}  // namespace

TEST_CASE("a tune is recorded, and the second finds it in the cache") {
  std::string cache = scratch_dir("cli_tune");
  bool cpu = tegula::file_exists(cpu_manifest());
  std::string env = "TEGULA_CACHE_DIR=" + cache + (cpu ? " TEGULA_ADD_PLUGINS=" + cpu_manifest() : "");
  std::string device = cpu ? "cpu" : "reference";
  std::string gemm = example("gemm/gemm_tuned_bf16.tile");
  std::string args = "tune " + gemm + " --device " + device + " --bind M=72,N=40,K=48 --top 3 --repeat 2";
  int rc = -1;
  std::string out = tegula_cli(args, &rc, env);
  REQUIRE_MESSAGE(rc == 0, out);
  CHECK(out.find("measuring the top 3") != std::string::npos);
  CHECK(out.find("<- chosen") != std::string::npos);
  CHECK(out.find("recorded in the compile cache") != std::string::npos);
  CHECK(out.find("check") != std::string::npos);
  size_t oks = 0;
  for (size_t at = out.find("  ok"); at != std::string::npos; at = out.find("  ok", at + 1)) ++oks;
  CHECK(oks >= 1);
  size_t chose = out.find("chose ");
  REQUIRE(chose != std::string::npos);
  std::string binding = out.substr(chose + 6, out.find(':', chose) - chose - 6);

  out = tegula_cli(args, &rc, env);
  CHECK_MESSAGE(rc == 0, out);
  CHECK(out.find("cached: " + binding + " was measured") != std::string::npos);
  CHECK(out.find("<- chosen") == std::string::npos);

  out = tegula_cli("run " + gemm + " --device " + device + " --bind M=72,N=40,K=48", &rc, env);
  CHECK_MESSAGE(rc == 0, out);
  CHECK(out.find("tunables " + binding + " (measured)") != std::string::npos);
  CHECK(out.find("PASS") != std::string::npos);

  out = tegula_cli(args + " --force", &rc, env);
  CHECK_MESSAGE(rc == 0, out);
  CHECK(out.find("<- chosen") != std::string::npos);
}

TEST_CASE("check verifies every candidate; lower explains the ranking's choice") {
  int rc = -1;
  std::string gemm = example("gemm/gemm_tuned_bf16.tile");
  std::string out = tegula_cli("check " + gemm, &rc);
  CHECK_MESSAGE(rc == 0, out);
  CHECK(out.find("6 tunables, 600 of 720 candidates verify, 120 break where conditions") != std::string::npos);
  out = tegula_cli("lower " + gemm + " --target sm_90a --shape M=8192,N=8192,K=8192 --explain", &rc);
  CHECK_MESSAGE(rc == 0, out);
  CHECK(out.find("// tunables: chose BM=") != std::string::npos);
  CHECK(out.find("ranked first of ") != std::string::npos);
  CHECK(out.find("compute-limited") != std::string::npos);
  out = tegula_cli("lower " + gemm + " --target sm_90a --tune BM=64,BN=64,BK=32,S=2,T=128,R=1", &rc);
  CHECK_MESSAGE(rc == 0, out);
  CHECK(out.find("threads(128)") != std::string::npos);
  CHECK(out.find("lower.raster") == std::string::npos);  // R=1 keeps launch order
  out = tegula_cli("print " + gemm + " --tune BM=128,BN=128,BK=64,S=3,T=256,R=8", &rc);
  CHECK_MESSAGE(rc == 0, out);
  CHECK(out.find("// instance: BM=128 BN=128 BK=64 S=3 T=256 R=8") != std::string::npos);
  CHECK(out.find("alloc As: shared bf16[128, 64]") != std::string::npos);
  out = tegula_cli("tune " + gemm + " --bind M=8", &rc);
  CHECK(rc == 2);
  CHECK(out.find("--bind gives no value for shape symbol") != std::string::npos);
  out = tegula_cli("tune " + example("gemm/gemm_bf16.tile") + " --bind M=8,N=8,K=8", &rc);
  CHECK(rc == 1);
  CHECK(out.find("the kernel has no tunables") != std::string::npos);
}

}  // namespace cli_tune_test
