// Numeric options are parsed whole and range-checked: a value that is not a number, has
// trailing text, is not finite or is out of range is refused with exit status 2 and a
// message naming the option, before anything runs (no device is touched).
#include <doctest/doctest.h>

#include <string>

#include "conformance/tests/TestSupport.h"

namespace bad_numeric_options_refused_test {

using namespace tegula::conformance::testing;

namespace {

void check_refused(const std::string& args, const std::string& option) {
  CliRun run = run_conformance("reference", args);
  INFO(args << "\n" << run.output);
  CHECK(run.status == 2);
  CHECK(run.output.find(option) != std::string::npos);
}

}  // namespace

TEST_CASE("a timeout that is not a finite positive number of seconds is refused") {
  check_refused("--timeout inf --quiet", "--timeout");
  check_refused("--timeout 1e300 --quiet", "--timeout");
  check_refused("--timeout 5s --quiet", "--timeout");
  check_refused("--timeout 0 --quiet", "--timeout");
}

TEST_CASE("a job count that is not a positive integer is refused") {
  check_refused("--jobs abc --quiet", "--jobs");
  check_refused("--jobs 0 --quiet", "--jobs");
  check_refused("--jobs 2x --quiet", "--jobs");
}

TEST_CASE("a seed that is not an unsigned 64-bit integer is refused") {
  check_refused("--seed -1 --quiet", "--seed");
  check_refused("--seed 12abc --quiet", "--seed");
  check_refused("--seed 99999999999999999999999 --quiet", "--seed");
}

TEST_CASE("verify --recheck needs a count, and is never taken as the report's path") {
  check_refused("verify --recheck", "--recheck");
  check_refused("verify some/report.json --recheck many", "--recheck");
}

}  // namespace bad_numeric_options_refused_test
