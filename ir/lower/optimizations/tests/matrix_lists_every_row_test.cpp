// The list is the rows: every file under rows/ is listed once (OptimizationList.h), every row
// is complete, and on the built-in targets no cell is MISSED (a target that could use an
// optimization gets it on the row's solution kernel): a lowering change that loses one fails
// here with the row, the target and what the lowering did instead.
#include <set>

#include "ir/BlockRaces.h"
#include "ir/Parser.h"
#include "ir/lower/optimizations/tests/RowCases.h"

namespace matrix_lists_every_row_test {

using namespace tegula;
using namespace tegula::ir::optimizations;

TEST_CASE("every row file is listed once, with an id, a description and a solution kernel that verifies without races") {
  // Kernels.h and the shared row helpers are headers; every .cpp under rows/ is one row.
  CHECK(all_optimizations().size() == size_t(TEGULA_OPTIMIZATION_ROW_FILES));
  std::set<std::string> ids;
  for (const Optimization* o : all_optimizations()) {
    CAPTURE(o->id);
    CHECK(ids.insert(o->id).second);
    CHECK(find_optimization(o->id) == o);
    CHECK(std::string(o->title).size() > 0);
    CHECK(std::string(o->description).size() > 20);
    CHECK((o->not_yet != nullptr) != (o->detect != nullptr));
    auto k = ir::parse_and_verify(o->kernel, o->id);
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    CHECK(ir::find_block_races(*k).empty());  // what tegula check --strict asks of a kernel
  }
  CHECK(find_optimization("no_such_row") == nullptr);
}

TEST_CASE("no cell of the built-in targets is missed, and the JSON has one cell per row and column") {
  std::vector<TargetDescription> targets;
  for (const std::string& n : builtin_target_names()) targets.push_back(*builtin_target(n));
  std::vector<Column> columns;
  for (const TargetDescription& t : targets) columns.push_back({t.name, &t});
  Matrix m = compute_matrix(columns);
  REQUIRE(m.cells.size() == all_optimizations().size());
  for (size_t i = 0; i < m.rows.size(); ++i)
    for (size_t j = 0; j < m.columns.size(); ++j) {
      INFO(m.rows[i]->id << " on " << m.columns[j] << ": " << m.cells[i][j].reason);
      CHECK(m.cells[i][j].state != CellState::Missed);
      CHECK(!m.cells[i][j].reason.empty());
      CHECK(m.cells[i][j].measured == "not measured");
    }
  Json j = matrix_json(m);
  CHECK(j.find("schema")->as_string() == kMatrixSchema);
  CHECK(j.find("columns")->size() == targets.size());
  REQUIRE(j.find("rows")->size() == m.rows.size());
  const Json& tma = j.find("rows")->items()[2];
  CHECK(tma.find("id")->as_string() == "bulk_tensor_copy");
  CHECK(tma.find("cells")->find("sm_90a")->find("state")->as_string() == "applies");
  CHECK(tma.find("cells")->find("sm_80")->find("state")->as_string() == "not_applicable");
  std::string text = matrix_text(m);
  CHECK(text.find("bulk_tensor_copy") != std::string::npos);
  CHECK(text.find("not yet") != std::string::npos);
}

}  // namespace matrix_lists_every_row_test
