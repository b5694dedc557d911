// The optimization matrix of a report: ir/lower/optimizations' rows on the target description
// of every device tested, derived from the report's own devices (so verify derives it again
// and compares). A cell that applies on a device run with --perf carries its measured effect,
// from two of that device's figures (perf/PerfEffects.h). Measured effects are figures,
// covered by the integrity hash like every other field; verify compares the rest without
// them (bundles written before the pairs existed say "not measured").
#include "conformance/Report.h"
#include "conformance/perf/PerfEffects.h"
#include "ir/lower/optimizations/Optimizations.h"
#include "targets/Target.h"

namespace tegula::conformance {

namespace opt = ir::optimizations;

Json derive_optimizations(const Json& report) {
  std::vector<TargetDescription> targets;
  std::vector<std::string> names;
  std::vector<const Json*> device_json;
  if (const Json* devices = report.find("devices"); devices && devices->is_array()) {
    for (const Json& d : devices->items()) {
      const Json* t = d.find("target");
      const Json* json = t ? t->find("json") : nullptr;
      const Json* name = d.find("name");
      if (d.find("error") || !json || !json->is_string() || !name || !name->is_string()) continue;
      Result<TargetDescription> parsed = parse_target(json->as_string(), name->as_string() + " target");
      if (!parsed.is_ok()) continue;
      targets.push_back(std::move(*parsed));
      names.push_back(name->as_string());
      device_json.push_back(&d);
    }
  }
  std::vector<opt::Column> columns;
  for (size_t i = 0; i < targets.size(); ++i) columns.push_back({names[i], &targets[i]});
  opt::Matrix matrix = opt::compute_matrix(columns);
  for (size_t i = 0; i < matrix.rows.size(); ++i)
    for (size_t j = 0; j < columns.size(); ++j) {
      opt::Cell& cell = matrix.cells[i][j];
      if (cell.state != opt::CellState::Applies) continue;
      std::string effect = measured_effect(matrix.rows[i]->id, *device_json[j]);
      if (!effect.empty()) cell.measured = effect;
    }
  Json m = opt::matrix_json(matrix);
  Json column_targets = Json::object();
  for (size_t i = 0; i < targets.size(); ++i) column_targets.set(names[i], targets[i].name);
  m.set("column_targets", column_targets);
  m.set("measured", "where a cell applies on a device run with --perf: two of its figures, with and without the "
                    "optimization (conformance/perf/PerfEffects.h)");
  return m;
}

Json without_measurements(const Json& matrix) {
  Json copy = matrix;
  if (!copy.is_object()) return copy;
  std::erase_if(copy.members(), [](const Json::Member& m) { return m.first == "measured"; });
  Json* rows = nullptr;
  for (Json::Member& m : copy.members())
    if (m.first == "rows") rows = &m.second;
  if (!rows || !rows->is_array()) return copy;
  for (Json& row : rows->items()) {
    if (!row.is_object()) continue;
    for (Json::Member& rm : row.members()) {
      if (rm.first != "cells" || !rm.second.is_object()) continue;
      for (Json::Member& cell : rm.second.members())
        if (cell.second.is_object())
          std::erase_if(cell.second.members(), [](const Json::Member& m) { return m.first == "measured"; });
    }
  }
  return copy;
}

std::string optimizations_difference(const Json& got, const Json& want) {
  Json g = without_measurements(got), w = without_measurements(want);
  if (g == w) return "";
  const Json* gc = g.find("columns");
  if (!gc || !(*gc == *w.find("columns"))) return "its columns are not the tested devices " + w.find("columns")->dump();
  const Json* grows = g.find("rows");
  for (const Json& row : w.find("rows")->items()) {
    const std::string& id = row.find("id")->as_string();
    const Json* match = nullptr;
    if (grows && grows->is_array())
      for (const Json& r : grows->items())
        if (const Json* rid = r.find("id"); rid && *rid == Json(id)) match = &r;
    if (!match) return "row " + id + " is missing";
    const Json* cells = match->find("cells");
    for (const Json::Member& c : row.find("cells")->members()) {
      const Json* have = cells ? cells->find(c.first) : nullptr;
      if (!have || !(*have == c.second))
        return "row " + id + " on " + c.first + " says " + (have ? have->dump() : "nothing") + ", this build derives " +
               c.second.dump();
    }
    if (!(*match == row)) return "row " + id + " differs from this build's " + row.dump();
  }
  return "it differs from this build's matrix in its rows or fields";
}

}  // namespace tegula::conformance
