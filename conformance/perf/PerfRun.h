/// \file
/// The parent's side of `tegula conformance --perf`: one device's figures, measured one at
/// a time on one worker (figures measured side by side would disturb each other), after the
/// device's cases. A worker that dies or hangs on a figure leaves that figure "not measured"
/// with the reason, and a fresh worker takes the next.
#pragma once

#include <string>

#include "conformance/Pool.h"
#include "core/Json.h"
#include "targets/Target.h"

namespace tegula::conformance {

/// Why a software model's figures are not measured.
inline constexpr const char* kModelNotMeasured = "a software model (the reference interpreter): its speed certifies nothing";

struct PerfCall {
  std::string device;
  WorkerSpec worker;
  double timeout_s = 600;  ///< per figure
  bool model = false;      ///< a software model (the reference interpreter): nothing to measure
  bool large = false;      ///< accelerator sizes
  bool quiet = true;
  std::string filter;      ///< --perf-filter
};

/// The device's "performance" member of report.json: {"profile", "figures": [...]}.
Json run_device_perf(const PerfCall& call, const TargetDescription& target);

}  // namespace tegula::conformance
