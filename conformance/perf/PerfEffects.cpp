// Optimization effects from figure pairs (PerfEffects.h).
#include "conformance/perf/PerfEffects.h"

#include <cstdio>
#include <vector>

#include "conformance/JsonFields.h"

namespace tegula::conformance {
namespace {

/// The figures a side of a pair takes: one name, or the best of every figure whose name
/// starts with a prefix (the row's instructions, each forced onto the gemm).
struct Side {
  std::vector<const char*> prefixes;  ///< tried in order: the first that has a measured figure
  bool exact = false;
};

struct Pair {
  const char* row;
  Side on, off;
};

const Pair kPairs[] = {
    {"vector_access", {{"tegula.perf.copy.registers"}, true}, {{"tegula.perf.copy.scalar"}, true}},
    {"async_copy", {{"tegula.perf.copy.pipelined"}, true}, {{"tegula.perf.copy.loop"}, true}},
    {"bulk_tensor_copy", {{"tegula.perf.copy.pipelined"}, true}, {{"tegula.perf.copy.loop"}, true}},
    {"software_pipelining", {{"tegula.perf.copy.pipelined"}, true}, {{"tegula.perf.copy.loop"}, true}},
    {"register_prefetch", {{"tegula.perf.copy.pipelined"}, true}, {{"tegula.perf.copy.loop"}, true}},
    {"mma_sync", {{"tegula.perf.gemm.mma_sync."}}, {{"tegula.perf.gemm.fma."}}},
    {"wgmma", {{"tegula.perf.gemm.wgmma."}}, {{"tegula.perf.gemm.mma_sync.", "tegula.perf.gemm.fma."}}},
    {"mfma", {{"tegula.perf.gemm.mfma."}}, {{"tegula.perf.gemm.fma."}}},
    {"tcgen05", {{"tegula.perf.gemm.tcgen05."}}, {{"tegula.perf.gemm.wgmma.", "tegula.perf.gemm.fma."}}},
    {"subgroup_coopmat", {{"tegula.perf.gemm.coopmat.m"}}, {{"tegula.perf.gemm.fma."}}},
    {"workgroup_coopmat", {{"tegula.perf.gemm.coopmat.wg"}}, {{"tegula.perf.gemm.coopmat.m", "tegula.perf.gemm.fma."}}},
};

/// The best measured figure of a side (null when none is measured).
const Json* pick(const Side& side, const Json& figures) {
  for (const char* prefix : side.prefixes) {
    const Json* best = nullptr;
    for (const Json& f : figures.items()) {
      std::string name = str(f, "name");
      bool match = side.exact ? name == prefix : name.rfind(prefix, 0) == 0;
      if (!match || !f.find("method") || !(number(f, "value") > 0)) continue;
      if (!best || number(f, "value") > number(*best, "value")) best = &f;
    }
    if (best) return best;
  }
  return nullptr;
}

std::string describe(const Side& side) {
  std::string out;
  for (const char* p : side.prefixes) out += std::string(out.empty() ? "" : " or ") + p + (side.exact ? "" : "*");
  return out;
}

std::string three(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

std::string measured_effect(const std::string& row_id, const Json& device) {
  const Json* perf = device.find("performance");
  const Json* figures = perf ? perf->find("figures") : nullptr;
  if (!figures || !figures->is_array()) return "";
  for (const Pair& p : kPairs) {
    if (row_id != p.row) continue;
    const Json* on = pick(p.on, *figures);
    const Json* off = pick(p.off, *figures);
    if (!on) return "not measured: no measured figure " + describe(p.on) + " on this device";
    if (!off) return "not measured: no measured figure " + describe(p.off) + " to compare with on this device";
    // Both sides of a pair are of one kind (bandwidths, or gemm rates), so one unit.
    return "on " + three(number(*on, "value")) + " " + str(*on, "unit") + " (" + str(*on, "name") + "), off " +
           three(number(*off, "value")) + " " + str(*off, "unit") + " (" + str(*off, "name") + "): " +
           three(number(*on, "value") / number(*off, "value")) + "x";
  }
  return "not measured: no figure pair for this optimization in the performance section";
}

}  // namespace tegula::conformance
