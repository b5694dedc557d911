/// \file
/// describe_target(): the human-readable summary printed by `tegula targets`.
#include <cstdint>
#include <cstdio>

#include "targets/Target.h"

namespace tegula {

static std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

static std::string dtype_list(const std::vector<DType>& types) {
  std::string out;
  for (DType t : types) out += (out.empty() ? "" : "|") + std::string(dtype_name(t));
  return out;
}

static std::string locations(const Operand& operand) {
  std::string out;
  for (const OperandPlacement& p : operand.placements) {
    out += (out.empty() ? "" : "|") + std::string(operand_location_name(p.location));
  }
  return out;
}

static std::string instruction_line(const MatrixInstruction& mi) {
  std::string line = "    " + mi.id;
  line += "  " + std::string(instruction_kind_name(mi.kind));
  line += "  m" + mi.m.to_string() + " n" + mi.n.to_string() + " k" + mi.k.to_string();
  line += "  " + dtype_list(mi.a_types) + " x " + dtype_list(mi.b_types) + " + " +
          dtype_list(mi.c_types) + " -> " + dtype_list(mi.d_types);
  line += "  " + std::string(group_scope_name(mi.scope)) + "/" + std::to_string(mi.group_threads);
  line += "  a:" + locations(mi.a) + " b:" + locations(mi.b) + " acc:" + locations(mi.acc);
  line += "  rate " + number(mi.rate);
  return line + "\n";
}

std::string describe_target(const TargetDescription& t) {
  std::string out = t.name + " (version " + std::to_string(t.version) + "): " + t.vendor + " " +
                    t.arch + ", backend " + backend_name(t.backend) + "\n";
  out += "  subgroup " + std::to_string(t.subgroup_width) + ", max " +
         std::to_string(t.max_threads_per_block) + " threads/block, shared memory " +
         std::to_string(t.shared_memory_per_block) + " B/block";
  if (t.shared_memory_banks) {
    out += " (" + std::to_string(t.shared_memory_banks->count) + " banks x " +
           std::to_string(t.shared_memory_banks->width_bytes) + " B)";
  }
  out += ", vector " + std::to_string(t.vector_bytes) + " B\n";
  std::string extra;
  auto add = [&](const std::optional<int64_t>& v, const std::string& label) {
    if (v) extra += (extra.empty() ? "" : ", ") + std::to_string(*v) + " " + label;
  };
  add(t.registers_per_block, "registers/block");
  add(t.registers_per_thread, "registers/thread");
  add(t.compute_units, "compute units");
  add(t.l2_bytes, "B L2");
  if (!extra.empty()) out += "  " + extra + "\n";
  std::string peak;
  for (const auto& [dtype, tflops] : t.peak.tflops) {
    peak += (peak.empty() ? "" : ", ") + std::string(dtype_name(dtype)) + " " + number(tflops) + " TFLOPS";
  }
  if (t.peak.memory_gbps) peak += (peak.empty() ? "" : ", ") + number(*t.peak.memory_gbps) + " GB/s";
  if (t.peak.clock_mhz) peak += (peak.empty() ? "" : ", ") + number(*t.peak.clock_mhz) + " MHz";
  if (t.peak.subgroups_per_cu) peak += (peak.empty() ? "" : ", ") + std::to_string(*t.peak.subgroups_per_cu) + " subgroups/CU";
  if (t.peak.fma_lanes_per_cu) peak += (peak.empty() ? "" : ", ") + std::to_string(*t.peak.fma_lanes_per_cu) + " FMA lanes/CU";
  if (!peak.empty()) out += "  peak: " + peak + "\n";
  std::string features;
  for (Feature f : t.features) features += std::string(" ") + feature_name(f);
  out += "  features:" + (features.empty() ? std::string(" none") : features) + "\n";
  std::string dtypes;
  for (DType d : t.dtypes) dtypes += std::string(" ") + dtype_name(d);
  out += "  dtypes:" + dtypes + "\n";
  out += "  matrix instructions (" + std::to_string(t.matrix_instructions.size()) + "):\n";
  for (const MatrixInstruction& mi : t.matrix_instructions) out += instruction_line(mi);
  return out;
}

}  // namespace tegula
