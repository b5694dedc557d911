// tegula run --repeat N: the kernel launched N more times between two device events, the
// time per launch printed; --check-against reference compares with the reference device.
#include <doctest/doctest.h>

#include <cstdlib>

#include "runtime/tests/CliSupport.h"

namespace cli_run_repeat_test {

using namespace tegula::testing;

TEST_CASE("--repeat reports a time per launch from device events") {
  int rc = -1;
  std::string out = tegula_cli("run " + example("elementwise/silu_mul.tile") + " --bind N=4096 --repeat 3", &rc);
  CHECK_MESSAGE(rc == 0, out);
  size_t at = out.find("3 launches: ");
  REQUIRE(at != std::string::npos);
  double ms = std::atof(out.c_str() + at + 12);
  CHECK(ms > 0);
  CHECK(out.find("ms per launch (device events)") != std::string::npos);
  CHECK(out.find("PASS") != std::string::npos);  // the outputs are those of one launch
}

TEST_CASE("--check-against reference runs the same inputs on the reference device") {
  std::string dir = scratch_dir("cli_run_check_against");
  std::string path = dir + "/axpb.tile";
  REQUIRE(tegula::write_file_atomic(path, axpb_ir()).is_ok());
  int rc = -1;
  std::string out = tegula_cli("run " + path + " --bind N=200,a=0.5,b=3 --check-against reference", &rc);
  CHECK_MESSAGE(rc == 0, out);
  CHECK(out.find("compared with the reference device:") != std::string::npos);
  CHECK(out.find("Y: 200 elements, 0 mismatches") != std::string::npos);
  CHECK(out.find("PASS") != std::string::npos);
  // A device that computes one element wrong (the conformance test plugin that zeroes the
  // middle element of the last tensor) fails the comparison, naming the element.
  std::string wrong = std::string(TEGULA_BINARY_DIR) + "/conformance/testing/plugins.d/conformance_wrong.json";
  out = tegula_cli("run " + path + " --device conformance_wrong --bind N=200,a=0.5,b=3 --check-against reference", &rc,
                   "TEGULA_ADD_PLUGINS=" + wrong);
  CHECK(rc == 1);
  CHECK(out.find("Y: 200 elements, 1 mismatches") != std::string::npos);
  CHECK(out.find("Y element 100: got 0.0, reference device") != std::string::npos);
  CHECK(out.find("FAIL") != std::string::npos);
  // Without a reference device to compare with, an error.
  out = tegula_cli("run " + path + " --bind N=8 --check-against reference", &rc, "TEGULA_PLUGINS=" + wrong);
  CHECK(rc == 1);
  CHECK(out.find("--check-against reference: no device 'reference'") != std::string::npos);
}

}  // namespace cli_run_repeat_test
