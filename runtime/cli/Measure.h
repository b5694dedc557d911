/// \file
/// How `tegula tune` times its candidates: each twice, once in ranked order and once in
/// reverse, keeping the lower time. Whatever slows the first timings of a run (a GPU
/// ramping its clock up from idle after the compile phase, a driver finishing its pipeline
/// optimisation in the background) then costs no candidate its place: on vulkan:0 the H200
/// timed the first three candidates after a cold compile at 1.83, 1.00 and 0.56 ms and the
/// same three at 0.44, 0.43 and 0.55 ms when their pipelines came from the cache
/// (bench/results/h200-2026-12-04.md, call 3); in one pass the ranking's first always looked
/// 2.5-4.9x slower than the best.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/Status.h"

namespace tegula::cli {

struct Timing {
  double ms = -1;     ///< the lower of the two timings; -1 when either failed
  std::string error;  ///< the first failure, if any
};

/// Times candidates 0 .. n-1 through `time(candidate, step)`, step counting 0 .. 2n-1, in
/// the order 0, 1, ..., n-1, n-1, ..., 0. A candidate whose timing fails once is not timed
/// again and keeps that error.
inline std::vector<Timing> time_both_ways(size_t n, const std::function<Result<double>(size_t, size_t)>& time) {
  std::vector<Timing> out(n);
  for (size_t step = 0; step < 2 * n; ++step) {
    size_t i = step < n ? step : 2 * n - 1 - step;
    if (!out[i].error.empty()) continue;
    Result<double> ms = time(i, step);
    if (!ms.is_ok()) {
      out[i].error = ms.status().message();
      out[i].ms = -1;
      continue;
    }
    out[i].ms = out[i].ms < 0 ? *ms : std::min(out[i].ms, *ms);
  }
  return out;
}

}  // namespace tegula::cli
