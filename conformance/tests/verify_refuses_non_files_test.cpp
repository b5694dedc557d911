// `verify` reads only regular files: a FIFO named as the report (which a blocking open would
// wait on forever) and a device such as /dev/zero (which never ends) are refused at once.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <string>

#include "conformance/tests/TestSupport.h"

namespace verify_refuses_non_files_test {

using namespace tegula;
using namespace tegula::conformance::testing;

TEST_CASE("a FIFO report is refused, not waited on") {
  std::string dir = scratch("verify_fifo");
  REQUIRE(::mkfifo((dir + "/report.json").c_str(), 0600) == 0);
  CliRun run = run_conformance("reference", "verify '" + dir + "/report.json'");
  INFO(run.output);
  CHECK(run.status == 1);
  CHECK(run.output.find("report.json' is a pipe, not a regular file") != std::string::npos);
}

TEST_CASE("a device as the report is refused") {
  CliRun run = run_conformance("reference", "verify /dev/zero");
  INFO(run.output);
  CHECK(run.status == 1);
  CHECK(run.output.find("'/dev/zero' is a device, not a regular file") != std::string::npos);
}

}  // namespace verify_refuses_non_files_test
