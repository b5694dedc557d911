#include "conformance/perf/PerfCheck.h"

#include <vector>

#include "conformance/JsonFields.h"
#include "conformance/perf/PerfMeasure.h"
#include "conformance/perf/PerfRun.h"
#include "conformance/perf/PerfSuite.h"

namespace tegula::conformance {
size_t measured_figures(const Json& performance) {
  const Json* figures = performance.find("figures");
  size_t n = 0;
  if (figures && figures->is_array())
    for (const Json& f : figures->items()) n += f.find("method") != nullptr;
  return n;
}

std::string performance_difference(const Json& performance, const TargetDescription& target, const std::string& filter) {
  std::string profile = str(performance, "profile");
  if (profile != "accelerator" && profile != "host" && profile != "none") return "unknown profile '" + profile + "'";
  const Json* figures = performance.find("figures");
  if (!figures || !figures->is_array()) return "no 'figures' array";
  std::vector<PerfSpec> specs = select_figures(build_perf_suite(target, profile == "accelerator"), filter);
  if (figures->size() != specs.size())
    return std::to_string(figures->size()) + " figures where this build's suite has " + std::to_string(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    const Json& f = figures->items()[i];
    const PerfSpec& spec = specs[i];
    if (str(f, "name") != spec.name) return "figure " + std::to_string(i) + " is '" + str(f, "name") + "', the suite's is '" + spec.name + "'";
    const Json* method = f.find("method");
    if (!method) {
      if (str(f, "not_measured").empty()) return spec.name + ": neither measured nor a reason why not";
      if (!(f == unmeasured_figure(spec, str(f, "not_measured")))) return spec.name + ": an unmeasured figure carries other fields";
      if (profile == "none" && str(f, "not_measured") != kModelNotMeasured)
        return spec.name + ": a software model's figure says '" + str(f, "not_measured") + "', not '" + kModelNotMeasured + "'";
      if (profile != "none" && !spec.unsupported.empty() && str(f, "not_measured") != spec.unsupported)
        return spec.name + ": not measured for '" + str(f, "not_measured") + "', the suite says '" + spec.unsupported + "'";
      continue;
    }
    if (profile == "none") return spec.name + ": a software model's figure cannot be measured";
    if (!spec.unsupported.empty()) return spec.name + ": measured, though the device cannot run it (" + spec.unsupported + ")";
    const Json* median = method->find("median_ms");
    if (!method->is_object() || !median || !median->is_number() || !(median->as_double() > 0))
      return spec.name + ": its method has no positive median_ms";
    Json want = figure_json(spec, target, *method);
    if (!(f == want)) return spec.name + ": its value, peak or percentage does not follow from its method and the description (expected " + want.dump() + ")";
  }
  return "";
}

}  // namespace tegula::conformance
