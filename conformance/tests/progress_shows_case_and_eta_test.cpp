// Progress names the case that just finished and the time left at the pace so far, on a
// terminal (redrawn in place) and in a log (the first case, then every 10 s, and the end).
#include <doctest/doctest.h>

#include <string>

#include "conformance/Progress.h"
#include "conformance/tests/TestSupport.h"

namespace progress_shows_case_and_eta_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

TEST_CASE("durations in words") {
  CHECK(duration_words(0) == "0 s");
  CHECK(duration_words(59.4) == "59 s");
  CHECK(duration_words(65) == "1 min 05 s");
  CHECK(duration_words(3 * 3600 + 120) == "3 h 02 min");
  CHECK(duration_words(-4) == "0 s");
}

TEST_CASE("a progress line: counts, time taken, time left and the case") {
  int64_t counts[kNumOutcomes] = {};
  counts[int(Outcome::Pass)] = 9;
  counts[int(Outcome::NotSupported)] = 1;
  std::string line = progress_line("reference:0", 10, 40, counts, 20.0, "tegula.fill.global.f32.lattice");
  CHECK(line == "[reference:0] 10/40  ok 9  not supported 1  fail 0  crash 0  timeout 0  20.0 s, about 1 min 00 s left  "
                "tegula.fill.global.f32.lattice");
  // Done: no estimate.
  CHECK(progress_line("reference:0", 40, 40, counts, 80.0, "") ==
        "[reference:0] 40/40  ok 9  not supported 1  fail 0  crash 0  timeout 0  80.0 s");
}

TEST_CASE("a run's log shows the first case with an estimate") {
  std::string out = scratch("progress_eta");
  CliRun r = run_conformance("reference", "--filter 'tegula.fill.global.f32.*' --jobs 1 --out '" + out + "'");
  INFO(r.output);
  REQUIRE(r.status == 0);
  size_t first = r.output.find("[reference:0] 1/");
  REQUIRE(first != std::string::npos);
  std::string line = r.output.substr(first, r.output.find('\n', first) - first);
  CHECK(line.find(" left  tegula.fill.global.f32.") != std::string::npos);
  CHECK(line.find(", about ") != std::string::npos);
}

}  // namespace progress_shows_case_and_eta_test
