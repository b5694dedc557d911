// `tegula conformance --device hip@gfx942` runs here with no AMD GPU: a small filter (each
// forced MFMA instruction on exact inputs, one scan case) compiles offline, every case
// CompileOnly and never Pass, the forced instructions found in the code. The whole offline
// suite (278 cases, 21 s of CPU) runs in conformance.every_device, not here.
#include <cstdio>

#include "plugins/hip/tests/HipTest.h"

namespace offline_conformance_test {

using namespace tegula;
using namespace tegula::hip::testing;

TEST_CASE("hip@gfx942 certifies MFMA and scan code generation offline, as CompileOnly") {
  std::string out = std::string(TEGULA_BINARY_DIR) + "/hip-offline-conformance";
  std::string cmd = "rm -rf '" + out + "' && TEGULA_PLUGINS='" + std::string(TEGULA_BINARY_DIR) +
                    "/share/tegula/plugins.d/hip.json' TEGULA_CACHE_DIR=off '" + std::string(TEGULA_BINARY_DIR) +
                    "/bin/tegula' conformance --device hip@gfx942 --filter "
                    "'tegula.gemm.mfma.*.exact,tegula.scan.sum.f32.rows.edge.inclusive' --quiet --out '" +
                    out + "' 2>&1";
  std::string text;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  int rc = pclose(p);
  CAPTURE(text);
  CHECK(rc == 0);
  CHECK(contains(text, "compiled only (no device)"));
  auto report = read_file(out + "/report.json");
  REQUIRE_MESSAGE(report.is_ok(), report.status().str());
  CHECK(contains(*report, "\"outcome\": \"CompileOnly\""));
  CHECK_FALSE(contains(*report, "\"outcome\": \"Pass\""));
  CHECK(contains(*report, "llvm.amdgcn.mfma.f32.32x32x8bf16.1k"));
}

}  // namespace offline_conformance_test
