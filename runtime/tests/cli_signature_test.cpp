// tegula signature: parameters with dtypes and shapes, which tensors are written, and the
// launch order (parameters, then shape symbols in order of first appearance: M, K, N).
#include <doctest/doctest.h>

#include "runtime/tests/CliSupport.h"

namespace cli_signature_test {

using namespace tegula::testing;

TEST_CASE("the gemm's signature and its launch order") {
  int rc = -1;
  std::string out = tegula_cli_stdout("signature " + example("gemm/gemm_bf16.tile"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("kernel gemm_bf16\n") == 0);
  CHECK(out.find("A          bf16[M, K]               tensor, read") != std::string::npos);
  CHECK(out.find("C          bf16[M, N]               tensor, written") != std::string::npos);
  CHECK(out.find("shape symbols (launch order): M K N\n") != std::string::npos);
  CHECK(out.find("launch order: A B C M K N\n") != std::string::npos);
}

TEST_CASE("scalars, and errors with their location") {
  std::string dir = scratch_dir("cli_signature");
  REQUIRE(tegula::write_file_atomic(dir + "/axpb.tile", axpb_ir()).is_ok());
  int rc = -1;
  std::string out = tegula_cli_stdout("signature " + dir + "/axpb.tile", &rc);
  CHECK(rc == 0);
  CHECK(out.find("a          f32                      scalar") != std::string::npos);
  CHECK(out.find("launch order: X Y a b N\n") != std::string::npos);
  REQUIRE(tegula::write_file_atomic(dir + "/bad.tile", "kernel k(X: f32[N]) grid(1) threads(32) {\n  nope\n}\n").is_ok());
  out = tegula_cli("signature " + dir + "/bad.tile", &rc);
  CHECK(rc == 1);
  CHECK(out.find(dir + "/bad.tile:2:") == 0);
  out = tegula_cli("signature", &rc);
  CHECK(rc == 2);
}

}  // namespace cli_signature_test
