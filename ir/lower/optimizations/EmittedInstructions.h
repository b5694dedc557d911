/// \file
/// The check a backend's tests run against the optimization matrix, which says what the
/// lowering decides: for every row that applies on a target, the backend's readable code of
/// the row's solution kernel (PTX, SPIR-V, assembly) holds one of the texts that carry the
/// optimization. The backend's table names them per row; a row with no instruction of its
/// own (a shared layout, a block order) says why instead, and a row that applies but has no
/// entry is a problem, so a new row is not claimed for a backend until someone says what it
/// emits. Used by cuda_tests, vulkan_tests and hip_tests (optimization_rows_emitted).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/lower/optimizations/Optimizations.h"

namespace tegula::ir::optimizations {

struct RowEmission {
  std::vector<std::string> any_of;  ///< one must appear in the code where the row applies
  std::string none_because;         ///< else: why the row has no instruction of its own
};
using EmissionTable = std::map<std::string, RowEmission>;

struct EmissionReport {
  std::vector<std::string> problems;  ///< empty: every applying row is accounted for
  int searched = 0;                   ///< cells whose code was searched
};

/// The rows applying on `t`, each checked against `table` in the code `code_of` gives for
/// the row (its solution kernel compiled for `t`).
inline EmissionReport check_emitted(const TargetDescription& t, const EmissionTable& table,
                                    const std::function<Result<std::string>(const Optimization&)>& code_of) {
  EmissionReport out;
  for (const Optimization* row : all_optimizations()) {
    Cell cell = evaluate(*row, t);
    if (cell.state != CellState::Applies) continue;
    std::string where = std::string("row ") + row->id + " on " + t.name;
    auto entry = table.find(row->id);
    if (entry == table.end()) {
      out.problems.push_back(where + " applies: say what this backend emits for it");
      continue;
    }
    const RowEmission& e = entry->second;
    if (e.any_of.empty()) {
      if (e.none_because.empty()) out.problems.push_back(where + ": no instruction and no reason why");
      continue;
    }
    Result<std::string> code = code_of(*row);
    if (!code.is_ok()) {
      out.problems.push_back(where + ": " + code.status().str());
      continue;
    }
    ++out.searched;
    bool found = false;
    std::string wanted;
    for (const std::string& p : e.any_of) {
      found = found || code->find(p) != std::string::npos;
      wanted += (wanted.empty() ? "" : " or ") + p;
    }
    if (!found) out.problems.push_back(where + ": the code has no " + wanted + " (the lowering's marker: " + cell.reason + ")");
  }
  return out;
}

}  // namespace tegula::ir::optimizations
