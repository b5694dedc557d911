// `tegula check` and races between blocks: a write that blocks may share is a warning at its
// location (exit 0), an error with --strict (exit 1), and a clean kernel says nothing more.
#include <doctest/doctest.h>

#include "core/Files.h"
#include "runtime/tests/CliSupport.h"

namespace cli_check_races_test {

using namespace tegula::testing;

namespace {

std::string racy_kernel(const std::string& dir) {
  std::string path = dir + "/racy.tile";
  REQUIRE(tegula::write_file_atomic(path,
                                    "kernel racy(A: f32[M, N], C: f32[M, N]) grid(ceildiv(N, 64), ceildiv(M, 64)) threads(64) {\n"
                                    "  alloc T: shared f32[64, 64]\n"
                                    "  copy A[by * 64, bx * 64], T\n"
                                    "  copy T, C[by * 64, 0]\n"
                                    "}\n")
              .is_ok());
  return path;
}

}  // namespace

TEST_CASE("a racy write is a located warning, and an error with --strict") {
  std::string path = racy_kernel(scratch_dir("cli_check_races"));
  int rc = -1;
  std::string out = tegula_cli("check " + path, &rc);
  CHECK(rc == 0);
  CHECK(out.find(path + ":4:") != std::string::npos);
  CHECK(out.find("warning: copy writes 'C'[by * 64, 0]") != std::string::npos);
  CHECK(out.find("every block along bx writes the same elements") != std::string::npos);
  CHECK(out.find("ok (kernel racy), 1 warning") != std::string::npos);
  out = tegula_cli("check --strict " + path, &rc);
  CHECK(rc == 1);
  CHECK(out.find(path + ":4:") != std::string::npos);
  CHECK(out.find("error: copy writes 'C'") != std::string::npos);
  CHECK(out.find("ok (kernel racy)") == std::string::npos);
}

TEST_CASE("a clean kernel passes --strict with no warning") {
  int rc = -1;
  std::string out = tegula_cli("check --strict " + example("gemm/gemm_f16.tile"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("warning") == std::string::npos);
  CHECK(out.find("ok (kernel gemm_f16)\n") != std::string::npos);
}

TEST_CASE("an unknown option of check is refused, not opened as a file") {
  int rc = -1;
  std::string out = tegula_cli("check --strictly " + example("gemm/gemm_f16.tile"), &rc);
  CHECK(rc == 2);
  CHECK(out.find("unknown option '--strictly'") != std::string::npos);
}

}  // namespace cli_check_races_test
