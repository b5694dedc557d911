/// \file
/// What a target description declares a device can reach, per measured quantity: memory
/// bandwidth, each matrix instruction's dense FLOP rate and the FMA fallback's. The
/// conformance suite's performance section (conformance/perf/) sets every measured figure
/// against these, so a device that declares a rate it cannot reach shows it plainly.
///
/// An instruction's peak is its catalogue `rate` (dense FLOPs one issuing group completes per
/// clock) x the groups a compute unit issues at once x compute units x clock:
///   - groups at once: peak.subgroups_per_cu / (the subgroups one group spans), at least 1
///     (4 warps of mma.sync on an SM, one wgmma warpgroup, 4 MFMA waves on a CU);
///   - clock: peak.clock_mhz, else the clock at which the catalogue's best instruction for a
///     dtype of peak.tflops reaches that figure (said in `basis`).
/// The FMA fallback's is 2 x peak.fma_lanes_per_cu x compute units x clock.
/// Each answer says how it was derived, or which fact the description lacks.
#pragma once

#include <string>

#include "targets/Target.h"

namespace tegula {

struct DeclaredPeak {
  double value = 0;   ///< > 0: the peak (GB/s or TFLOP/s); 0: none declared
  std::string basis;  ///< how `value` follows from the description, or what it lacks
  bool declared() const { return value > 0; }
};

/// peak.memory_gbps.
DeclaredPeak memory_peak_gbps(const TargetDescription& t);
/// Dense TFLOP/s of `inst` (an entry of t's catalogue); the FMA fallback's for kind fma.
DeclaredPeak instruction_peak_tflops(const TargetDescription& t, const MatrixInstruction& inst);
/// Issuing groups of `inst` a compute unit runs at once (0: subgroups_per_cu not declared).
double groups_per_cu(const TargetDescription& t, const MatrixInstruction& inst);

}  // namespace tegula
