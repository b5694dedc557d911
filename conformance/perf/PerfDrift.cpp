#include "conformance/perf/PerfDrift.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "conformance/JsonFields.h"
#include "conformance/Report.h"
#include "conformance/perf/PerfMeasure.h"
#include "core/Files.h"

namespace tegula::conformance {
namespace {

double spread(const Json& figure) {
  const Json* m = figure.find("method");
  return m ? number(*m, "spread_pct") : 0;
}

/// The change in percent, to three significant digits (what the entry stores).
double change_pct(double baseline, double value) { return significant((value / baseline - 1) * 100, 3); }

std::map<std::string, const Json*> measured(const Json& perf) {
  std::map<std::string, const Json*> out;
  const Json* figures = perf.find("figures");
  if (!figures || !figures->is_array()) return out;
  for (const Json& f : figures->items())
    if (f.find("method") && number(f, "value") > 0) out[str(f, "name")] = &f;
  return out;
}

}  // namespace

Result<Json> load_perf_baseline(const std::string& path) {
  std::error_code ec;
  std::string file = std::filesystem::is_directory(path, ec) ? path + "/report.json" : path;
  TG_ASSIGN_OR_RETURN(std::string text, read_file(file));
  TG_ASSIGN_OR_RETURN(Json report, Json::parse(text, file));
  const Json* integrity = report.find("integrity");
  if (!integrity || str(*integrity, "sha256") != integrity_hash(report))
    return error(ErrorCode::InvalidArgument, file + ": the integrity hash does not match the report's contents (edited?)");
  return report;
}

Json perf_drift(const Json& baseline, const Json& now, const std::string& baseline_integrity) {
  std::map<std::string, const Json*> before = measured(baseline), after = measured(now);
  Json figures = Json::array();
  int64_t compared = 0;
  for (const auto& [name, f] : after) {
    auto it = before.find(name);
    if (it == before.end() || str(*it->second, "unit") != str(*f, "unit")) continue;
    ++compared;
    double old_value = number(*it->second, "value"), value = number(*f, "value");
    double limit = std::max(spread(*it->second), spread(*f));
    double change = change_pct(old_value, value);
    if (std::fabs(change) <= limit) continue;
    Json e = Json::object();
    e.set("name", name);
    e.set("baseline_value", old_value);
    e.set("value", value);
    e.set("unit", str(*f, "unit"));
    e.set("change_pct", change);
    e.set("spread_pct", limit);
    figures.push(e);
  }
  Json out = Json::object();
  out.set("baseline_integrity", baseline_integrity);
  out.set("compared", compared);
  out.set("figures", figures);
  return out;
}

std::string drift_difference(const Json& drift, const Json& now) {
  const Json* figures = drift.find("figures");
  if (!figures || !figures->is_array()) return "drift has no 'figures' array";
  std::map<std::string, const Json*> after = measured(now);
  for (const Json& e : figures->items()) {
    std::string name = str(e, "name");
    auto it = after.find(name);
    if (it == after.end()) return "drift names " + name + ", which was not measured";
    if (number(e, "value") != number(*it->second, "value") || str(e, "unit") != str(*it->second, "unit"))
      return "drift of " + name + ": its value is not the figure's";
    double baseline = number(e, "baseline_value");
    if (!(baseline > 0) || number(e, "change_pct") != change_pct(baseline, number(e, "value")))
      return "drift of " + name + ": its change does not follow from its baseline value";
    if (!(std::fabs(number(e, "change_pct")) > number(e, "spread_pct")) || number(e, "spread_pct") < spread(*it->second))
      return "drift of " + name + ": a change within the measured spread is not drift";
  }
  return "";
}

}  // namespace tegula::conformance
