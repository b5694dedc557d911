// `tegula check`, `print`, `lower` and `run` read only regular kernel files of bounded size:
// /dev/zero (endless), a FIFO (a blocking open waits forever) and a file past the source
// bound end in one clear message and exit status 1, never an abort or a hang.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <string>

#include "runtime/tests/TestSupport.h"

namespace cli_refuses_bad_inputs_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("tegula check /dev/zero says it is not a kernel file") {
  std::string out;
  int rc = run_command("TEGULA_CACHE_DIR=off '" + tegula_exe() + "' check /dev/zero", &out);
  INFO(out);
  CHECK(rc == 1);
  CHECK(out.find("'/dev/zero' is a device, not a regular file") != std::string::npos);
}

TEST_CASE("tegula check on a FIFO returns at once") {
  std::string dir = scratch_dir("cli_fifo");
  REQUIRE(::mkfifo((dir + "/k.tile").c_str(), 0600) == 0);
  std::string out;
  int rc = run_command("'" + tegula_exe() + "' check '" + dir + "/k.tile'", &out);
  INFO(out);
  CHECK(rc == 1);
  CHECK(out.find("k.tile' is a pipe, not a regular file") != std::string::npos);
}

TEST_CASE("a kernel file past the source bound is refused by size") {
  std::string dir = scratch_dir("cli_big");
  std::string path = dir + "/big.tile";
  REQUIRE(write_file_atomic(path, std::string(kMaxSourceBytes + 1, ' ')).is_ok());
  std::string out;
  int rc = run_command("'" + tegula_exe() + "' check '" + path + "'", &out);
  INFO(out);
  CHECK(rc == 1);
  CHECK(out.find("is larger than " + std::to_string(kMaxSourceBytes) + " bytes") != std::string::npos);
  // The bound is on size, not content: the same kernel text of normal size is fine.
  REQUIRE(write_file_atomic(path, axpb_ir()).is_ok());
  CHECK(run_command("'" + tegula_exe() + "' check '" + path + "'", &out) == 0);
}

TEST_CASE("running out of memory is an error message and exit status 1, not an abort") {
  // 15 MB of one-character tokens (inside the source bound) need far more memory as tokens
  // than a 200 MB address space gives: std::bad_alloc, which used to end in SIGABRT.
  std::string dir = scratch_dir("cli_oom");
  std::string path = dir + "/many_tokens.tile";
  std::string text = "kernel k(A: f32[4]) grid(1) threads(1) {\n";
  text.reserve(15u << 20);
  while (text.size() < (15u << 20)) text += "x ";
  REQUIRE(write_file_atomic(path, text).is_ok());
  std::string out;
  int rc = run_command("ulimit -v 200000; '" + tegula_exe() + "' check '" + path + "'", &out);
  INFO(out);
  CHECK(rc == 1);
  CHECK(out.find("tegula: out of memory") != std::string::npos);
}

}  // namespace cli_refuses_bad_inputs_test
