/// \file
/// A re-run against an earlier bundle (`tegula conformance --perf --perf-baseline BUNDLE`):
/// every figure measured in both, on a device of the same name, whose value moved by more
/// than the larger of the two runs' measured spreads is listed as drift, in the device's
/// performance section and on the run's output. Within the spread a change is noise by the
/// runs' own measure; beyond it the device, its driver or tegula changed.
#pragma once

#include <string>

#include "core/Json.h"
#include "core/Status.h"

namespace tegula::conformance {

/// The baseline report: BUNDLE/report.json or the file itself, whose integrity hash must
/// hold (an edited baseline would fake drift).
Result<Json> load_perf_baseline(const std::string& path);

/// {"baseline_integrity", "compared", "figures": [{name, baseline_value, value, unit,
/// change_pct, spread_pct}]} for `now` (a device's performance section) against
/// `baseline` (the same device's section in the baseline; null when it has none).
Json perf_drift(const Json& baseline, const Json& now, const std::string& baseline_integrity);

/// "" when every drift entry follows from the figures of `now` (its value, unit and the
/// change from its baseline value, beyond its spread); else the first difference.
std::string drift_difference(const Json& drift, const Json& now);

}  // namespace tegula::conformance
