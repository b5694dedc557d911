// A plugin that compiles offline (compile_offline + executable_describe) gets CompileOnly
// cases for the built-in targets it accepts and no device covers: one per catalogue
// instruction shape, checked for the instruction's mnemonic in the described code. A plugin
// whose code does not hold the forced instruction fails those cases.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace compile_only_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("offline targets give CompileOnly cases that check the emitted instruction") {
  std::string out = scratch("compile_only");
  CliRun run = run_conformance("conformance_offline", "--filter 'tegula.gemm.*' --jobs 2 --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 0);
  Json report = load_report(out);
  std::vector<Json> sm90 = records(report, "conformance_offline@sm_90a");
  std::vector<Json> sm80 = records(report, "conformance_offline@sm_80");
  CHECK(sm90.size() > 50);
  CHECK(sm80.size() > 20);
  CHECK(records(report, "conformance_offline@gfx942").empty());  // the plugin refuses it
  bool saw_wgmma = false;
  for (const Json& r : sm90) {
    CHECK_MESSAGE(field(r, "outcome") == "CompileOnly", field(r, "name") << ": " << field(r, "detail"));
    if (field(r, "name") == "tegula.gemm.wgmma.m64n24k16.bf16_f32.tn.exact") {
      saw_wgmma = true;
      CHECK(field(r, "detail").find("emits wgmma.mma_async.sync.aligned.m64n24k16.f32.bf16.bf16") != std::string::npos);
    }
  }
  CHECK(saw_wgmma);
  CHECK(run_conformance("conformance_offline", "verify '" + out + "'").status == 0);
}

TEST_CASE("code without the forced instruction is Fail (instruction)") {
  std::string out = scratch("compile_only_liar");
  CliRun run = run_conformance("conformance_liar", "--device conformance_liar@sm_80 --filter 'tegula.gemm.mma_sync.*' --quiet --out '" + out + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  std::vector<Json> recs = records(load_report(out), "conformance_liar@sm_80");
  REQUIRE(recs.size() > 10);
  for (const Json& r : recs) {
    CHECK(field(r, "outcome") == "Fail");
    CHECK(field(r, "check") == "instruction");
  }
}

}  // namespace compile_only_test
