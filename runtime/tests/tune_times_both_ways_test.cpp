// tegula tune times each candidate twice, in ranked order and then reversed, and keeps the
// lower time (runtime/cli/Measure.h), so a device that runs its first launches slowly (a
// clock ramping up after the compile phase) does not push the ranking's first candidates
// out of the choice. The timer here is such a device: 4x slower for its first three
// timings. Timed once in ranked order, candidate 3 would win at 1.5 ms against the true best,
// candidate 2 at 1.0 ms.
#include <doctest/doctest.h>

#include <vector>

#include "runtime/cli/Measure.h"

namespace tune_times_both_ways_test {

using namespace tegula;
using namespace tegula::cli;

TEST_CASE("a slow start costs no candidate its place") {
  const std::vector<double> truth = {3.0, 2.0, 1.0, 1.5};
  std::vector<size_t> order;
  size_t calls = 0;
  std::vector<Timing> t = time_both_ways(truth.size(), [&](size_t i, size_t step) -> Result<double> {
    CHECK(step == calls);
    order.push_back(i);
    return truth[i] * (calls++ < 3 ? 4.0 : 1.0);
  });
  CHECK(order == std::vector<size_t>{0, 1, 2, 3, 3, 2, 1, 0});
  REQUIRE(t.size() == truth.size());
  for (size_t i = 0; i < truth.size(); ++i) {
    CHECK(t[i].error.empty());
    CHECK(t[i].ms == truth[i]);
  }
  size_t best = 0;
  for (size_t i = 1; i < t.size(); ++i)
    if (t[i].ms < t[best].ms) best = i;
  CHECK(best == 2);
}

TEST_CASE("a candidate whose timing fails in either pass keeps the error and is not timed again") {
  size_t calls_of_1 = 0;
  std::vector<Timing> t = time_both_ways(3, [&](size_t i, size_t step) -> Result<double> {
    if (i == 1) {
      ++calls_of_1;
      return error(ErrorCode::Device, "launch failed");
    }
    if (i == 2 && step >= 3) return error(ErrorCode::Device, "lost the device");
    return 1.0;
  });
  CHECK(calls_of_1 == 1);
  CHECK(t[0].ms == 1.0);
  CHECK(t[1].ms == -1);
  CHECK(t[1].error.find("launch failed") != std::string::npos);
  CHECK(t[2].ms == -1);  // timed once, then failed: not a time to choose by
  CHECK(t[2].error.find("lost the device") != std::string::npos);
}

TEST_CASE("no candidates: nothing is timed") {
  size_t calls = 0;
  std::vector<Timing> t = time_both_ways(0, [&](size_t, size_t) -> Result<double> {
    ++calls;
    return 1.0;
  });
  CHECK(t.empty());
  CHECK(calls == 0);
}

}  // namespace tune_times_both_ways_test
