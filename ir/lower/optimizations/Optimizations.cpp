// The rows (OptimizationList.h), each cell computed by lowering the row's solution kernel
// for the column's target and running the row's detector on what came out.
#include "ir/lower/optimizations/Optimizations.h"

#include <algorithm>

#include "ir/Parser.h"
#include "ir/lower/optimizations/OptimizationList.h"

namespace tegula::ir::optimizations {

#define TG_DECLARE_OPTIMIZATION(id) const Optimization& id();
TG_FOR_EACH_OPTIMIZATION(TG_DECLARE_OPTIMIZATION)
#undef TG_DECLARE_OPTIMIZATION

const std::vector<const Optimization*>& all_optimizations() {
  static const std::vector<const Optimization*> rows = {
#define TG_LIST_OPTIMIZATION(id) &id(),
      TG_FOR_EACH_OPTIMIZATION(TG_LIST_OPTIMIZATION)
#undef TG_LIST_OPTIMIZATION
  };
  return rows;
}

const Optimization* find_optimization(const std::string& id) {
  for (const Optimization* o : all_optimizations())
    if (id == o->id) return o;
  return nullptr;
}

const char* cell_state_name(CellState s) {
  switch (s) {
    case CellState::Applies: return "applies";
    case CellState::NotApplicable: return "not_applicable";
    case CellState::NotYet: return "not_yet";
    case CellState::Missed: return "missed";
  }
  return "";
}

const char* cell_mark(CellState s) {
  switch (s) {
    case CellState::Applies: return "yes";
    case CellState::NotApplicable: return "n/a";
    case CellState::NotYet: return "not yet";
    case CellState::Missed: return "MISSED";
  }
  return "";
}

Cell evaluate(const Optimization& row, const TargetDescription& target) {
  Cell c;
  if (std::string why = row.not_applicable(target); !why.empty()) {
    c.state = CellState::NotApplicable;
    c.reason = why;
    return c;
  }
  if (row.not_yet || !row.detect) {
    c.state = CellState::NotYet;
    c.reason = row.not_yet ? row.not_yet : "the lowering has no detector for it";
    return c;
  }
  c.state = CellState::Missed;
  Result<Kernel> k = parse_and_verify(row.kernel, std::string("optimizations/") + row.id + ".tile");
  if (!k.is_ok()) {
    c.reason = "the solution kernel does not verify: " + k.status().str();
    return c;
  }
  // A target that cannot hold the solution kernel's dtypes cannot run the kernel the row is
  // about (lowering's first pass refuses it): the row does not apply there.
  if (Status held = check_kernel_dtypes(*k, target); !held.is_ok()) {
    c.state = CellState::NotApplicable;
    c.reason = "the row's kernel: " + held.message();
    return c;
  }
  // The variant the runtime compiles for launches whose tensors start 16-byte aligned (the
  // common case, and what workgroup matrices need).
  LowerOptions options;
  options.raster_group = row.raster_group;
  options.tensors_aligned = true;
  Result<LowerResult> lowered = lower(*k, target, options);
  if (!lowered.is_ok()) {
    c.reason = "the solution kernel does not lower: " + lowered.status().str();
    return c;
  }
  Evidence e = row.detect(*lowered);
  c.state = e.found ? CellState::Applies : CellState::Missed;
  c.reason = e.marker;
  return c;
}

Matrix compute_matrix(const std::vector<Column>& columns, Measure measure) {
  Matrix m;
  m.rows = all_optimizations();
  for (const Column& c : columns) m.columns.push_back(c.label);
  for (const Optimization* row : m.rows) {
    std::vector<Cell> cells;
    for (const Column& c : columns) {
      cells.push_back(evaluate(*row, *c.target));
      if (!measure || cells.back().state != CellState::Applies) continue;
      if (std::string figure = measure(*row, c, cells.back()); !figure.empty()) cells.back().measured = figure;
    }
    m.cells.push_back(std::move(cells));
  }
  return m;
}

std::string matrix_text(const Matrix& m) {
  size_t first = 12;
  for (const Optimization* r : m.rows) first = std::max(first, std::string(r->id).size());
  std::vector<size_t> width;
  for (const std::string& c : m.columns) width.push_back(std::max<size_t>(c.size(), 7));
  auto pad = [](std::string s, size_t w) { return s + std::string(w > s.size() ? w - s.size() : 0, ' '); };
  std::string out = pad("optimization", first);
  for (size_t j = 0; j < m.columns.size(); ++j) out += "  " + pad(m.columns[j], width[j]);
  out += "\n";
  for (size_t i = 0; i < m.rows.size(); ++i) {
    std::string line = pad(m.rows[i]->id, first);
    for (size_t j = 0; j < m.columns.size(); ++j) line += "  " + pad(cell_mark(m.cells[i][j].state), width[j]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out +=
      "yes: the lowering applies it (tegula optimizations --target T shows the marker); n/a: the description rules it "
      "out;\n"
      "not yet: the lowering lacks it; MISSED: the target could, but the lowering did not apply it to the solution "
      "kernel\n";
  return out;
}

std::string column_text(const Matrix& m, size_t column) {
  std::string out = "optimizations on " + m.columns[column] + "\n";
  for (size_t i = 0; i < m.rows.size(); ++i) {
    const Cell& c = m.cells[i][column];
    out += "\n" + std::string(m.rows[i]->id) + " (" + m.rows[i]->title + "): " + cell_mark(c.state) + "\n";
    out += "  " + std::string(c.state == CellState::Applies ? "marker: " : "why: ") + c.reason + "\n";
    out += "  " + std::string(m.rows[i]->description) + "\n";
    out += "  measured: " + c.measured + "\n";
  }
  return out;
}

Json matrix_json(const Matrix& m) {
  Json out = Json::object();
  out.set("schema", kMatrixSchema);
  Json columns = Json::array();
  for (const std::string& c : m.columns) columns.push(Json(c));
  out.set("columns", columns);
  Json rows = Json::array();
  for (size_t i = 0; i < m.rows.size(); ++i) {
    Json r = Json::object();
    r.set("id", m.rows[i]->id);
    r.set("title", m.rows[i]->title);
    r.set("description", m.rows[i]->description);
    Json cells = Json::object();
    for (size_t j = 0; j < m.columns.size(); ++j) {
      const Cell& c = m.cells[i][j];
      Json x = Json::object();
      x.set("state", cell_state_name(c.state));
      x.set("reason", c.reason);
      x.set("measured", c.measured);
      cells.set(m.columns[j], x);
    }
    r.set("cells", cells);
    rows.push(r);
  }
  out.set("rows", rows);
  return out;
}

}  // namespace tegula::ir::optimizations
