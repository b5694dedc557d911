// Bad values on the command line are errors naming the option and the value, never silent
// defaults (`--seed abc` was 0) or a confusing "unknown option".
#include <doctest/doctest.h>

#include "runtime/tests/CliSupport.h"

namespace cli_bad_values_test {

using namespace tegula::testing;

namespace {

std::string silu() { return example("elementwise/silu_mul.tile"); }

}  // namespace

TEST_CASE("numbers are parsed whole") {
  int rc = -1;
  std::string out = tegula_cli("run " + silu() + " --bind N=8 --seed abc", &rc);
  CHECK(rc == 2);
  CHECK(out.find("tegula run: --seed: 'abc' is not an unsigned integer") != std::string::npos);
  out = tegula_cli("run " + silu() + " --bind N=8 --seed 12x", &rc);
  CHECK(rc == 2);
  CHECK(out.find("'12x' is not an unsigned integer") != std::string::npos);
  out = tegula_cli("run " + silu() + " --bind N=8 --seed -1", &rc);
  CHECK(rc == 2);
  out = tegula_cli("run " + silu() + " --bind N=8 --repeat 0", &rc);
  CHECK(rc == 2);
  CHECK(out.find("--repeat: 0 is not in 1..1000000") != std::string::npos);
  out = tegula_cli("run " + silu() + " --bind N=eight", &rc);
  CHECK(rc == 1);
  CHECK(out.find("shape symbol N: 'eight' is not an integer") != std::string::npos);
  out = tegula_cli("lower " + silu() + " --target sm_80 --raster 4x", &rc);
  CHECK(rc == 2);
  CHECK(out.find("--raster: '4x' is not an integer") != std::string::npos);
}

TEST_CASE("an option without its value says so") {
  int rc = -1;
  for (const char* tail : {" --device", " --device --seed 3", " --bind", " --seed", " --input", " --repeat"}) {
    CAPTURE(tail);
    std::string out = tegula_cli("run " + silu() + tail, &rc);
    CHECK(rc == 2);
    CHECK(out.find("needs a value") != std::string::npos);
  }
  std::string out = tegula_cli("lower " + silu() + " --target", &rc);
  CHECK(rc == 2);
  CHECK(out.find("tegula lower: option '--target' needs a value") != std::string::npos);
  out = tegula_cli("targets --device", &rc);
  CHECK(rc == 2);
  CHECK(out.find("tegula targets: option '--device' needs a value") != std::string::npos);
}

TEST_CASE("--assume names a shape symbol the kernel has") {
  int rc = -1;
  std::string out = tegula_cli("lower " + example("gemm/gemm_bf16.tile") + " --target sm_80 --assume Q=4", &rc);
  CHECK(rc == 2);
  CHECK(out.find("--assume Q=4: kernel 'gemm_bf16' has no shape symbol 'Q' (its symbols: M, K, N)") !=
        std::string::npos);
  out = tegula_cli("lower " + example("gemm/gemm_bf16.tile") + " --target sm_80 --assume K=3", &rc);
  CHECK(rc == 2);
  CHECK(out.find("expected SYMBOL=POWER_OF_TWO") != std::string::npos);
  out = tegula_cli("lower " + example("gemm/gemm_bf16.tile") + " --target sm_80 --assume K=16,N=16", &rc);
  CHECK(rc == 0);
}

TEST_CASE("unknown names in --bind, --check-against and unknown options") {
  int rc = -1;
  std::string out = tegula_cli("run " + silu() + " --bind N=8,Q=2", &rc);
  CHECK(rc == 1);
  CHECK(out.find("kernel 'silu_mul' has no shape symbol or scalar named 'Q' (shape symbols: N; scalars: none)") !=
        std::string::npos);
  out = tegula_cli("run " + silu() + " --bind N=8 --check-against cuda", &rc);
  CHECK(rc == 2);
  CHECK(out.find("'cuda' is not a check") != std::string::npos);
  out = tegula_cli("run " + silu() + " --frobnicate", &rc);
  CHECK(rc == 2);
  CHECK(out.find("unknown option '--frobnicate'") != std::string::npos);
}

}  // namespace cli_bad_values_test
