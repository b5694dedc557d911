/// \file
/// What `tegula conformance verify` checks of a device's performance section: the figures
/// are the ones this build's perf suite gives for the device's description and profile, in
/// order; each measured figure's value, peak and percentage follow from its stored method
/// and the description (targets/Peak.h), and each unmeasured one gives a reason. The
/// measurements themselves cannot be re-derived: the integrity hash and the signature cover
/// them.
#pragma once

#include <string>

#include "core/Json.h"
#include "targets/Target.h"

namespace tegula::conformance {

/// "" when `performance` is consistent with `target`; else the first difference, in words.
/// `filter` is the run's --perf-filter.
std::string performance_difference(const Json& performance, const TargetDescription& target, const std::string& filter);

/// Measured figures in `performance`.
size_t measured_figures(const Json& performance);

}  // namespace tegula::conformance
