#include "targets/Peak.h"

#include <algorithm>
#include <cstdio>

namespace tegula {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

struct Clock {
  double mhz = 0;
  std::string basis;  ///< how it was found, or what is missing
};

/// The declared clock, else the one at which the best catalogue instruction for a dtype of
/// peak.tflops reaches that figure.
Clock clock_of(const TargetDescription& t) {
  if (t.peak.clock_mhz) return {*t.peak.clock_mhz, "clock " + fixed(*t.peak.clock_mhz, 0) + " MHz (declared)"};
  if (!t.compute_units) return {0, "no compute_units"};
  for (const auto& [dtype, tflops] : t.peak.tflops) {
    double best = 0;
    for (const MatrixInstruction& m : t.matrix_instructions) {
      if (m.kind == InstructionKind::Fma) continue;
      if (std::find(m.a_types.begin(), m.a_types.end(), dtype) == m.a_types.end()) continue;
      best = std::max(best, m.rate * groups_per_cu(t, m));
    }
    if (best <= 0) continue;
    double mhz = tflops * 1e12 / (best * double(*t.compute_units)) / 1e6;
    return {mhz, "clock " + fixed(mhz, 0) + " MHz (derived: peak.tflops." + dtype_name(dtype) + " " + fixed(tflops, 0) +
                     " on the catalogue's best " + dtype_name(dtype) + " instruction)"};
  }
  return {0, "no peak.clock_mhz, and no peak.tflops entry a catalogued instruction reaches"};
}

}  // namespace

double groups_per_cu(const TargetDescription& t, const MatrixInstruction& inst) {
  if (!t.peak.subgroups_per_cu || t.subgroup_width <= 0) return 0;
  double spans = std::max(1.0, double(inst.group_threads) / double(t.subgroup_width));
  return std::max(1.0, double(*t.peak.subgroups_per_cu) / spans);
}

DeclaredPeak memory_peak_gbps(const TargetDescription& t) {
  if (!t.peak.memory_gbps) return {0, t.name + " declares no peak.memory_gbps"};
  return {*t.peak.memory_gbps, "peak.memory_gbps of " + t.name};
}

DeclaredPeak instruction_peak_tflops(const TargetDescription& t, const MatrixInstruction& inst) {
  if (!t.compute_units) return {0, t.name + " declares no compute_units"};
  double cus = double(*t.compute_units);
  if (inst.kind == InstructionKind::Fma) {
    if (!t.peak.fma_lanes_per_cu) return {0, t.name + " declares no peak.fma_lanes_per_cu"};
    Clock c = clock_of(t);
    if (c.mhz <= 0) return {0, t.name + ": " + c.basis};
    double lanes = double(*t.peak.fma_lanes_per_cu);
    return {2 * lanes * cus * c.mhz * 1e6 / 1e12,
            "2 x " + fixed(lanes, 0) + " FMA lanes x " + fixed(cus, 0) + " CUs x " + c.basis};
  }
  double groups = groups_per_cu(t, inst);
  if (groups <= 0) return {0, t.name + " declares no peak.subgroups_per_cu"};
  if (inst.rate <= 0) return {0, inst.id + " has no rate"};
  Clock c = clock_of(t);
  if (c.mhz <= 0) return {0, t.name + ": " + c.basis};
  return {inst.rate * groups * cus * c.mhz * 1e6 / 1e12, "rate " + fixed(inst.rate, 0) + " x " + fixed(groups, 0) +
                                                             " groups x " + fixed(cus, 0) + " CUs x " + c.basis};
}

}  // namespace tegula
