/// \file
/// What the row tests share: one cell of a row on a built-in target, and checks on its state.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "ir/lower/optimizations/Optimizations.h"
#include "targets/Target.h"

namespace tegula::ir::optimizations::testing {

inline Cell cell_on(const std::string& row, const TargetDescription& t) {
  const Optimization* o = find_optimization(row);
  REQUIRE_MESSAGE(o, "no row " << row);
  return evaluate(*o, t);
}

inline Cell cell_on(const std::string& row, const std::string& target) {
  Result<TargetDescription> t = builtin_target(target);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return cell_on(row, *t);
}

/// The cell applies and its marker contains `marker`.
inline void check_applies(const std::string& row, const std::string& target, const std::string& marker) {
  Cell c = cell_on(row, target);
  INFO(row << " on " << target << ": " << cell_state_name(c.state) << ": " << c.reason);
  CHECK(c.state == CellState::Applies);
  CHECK(c.reason.find(marker) != std::string::npos);
}

/// The cell is not applicable and says why with `why`.
inline void check_not_applicable(const std::string& row, const std::string& target, const std::string& why) {
  Cell c = cell_on(row, target);
  INFO(row << " on " << target << ": " << cell_state_name(c.state) << ": " << c.reason);
  CHECK(c.state == CellState::NotApplicable);
  CHECK(c.reason.find(why) != std::string::npos);
}

}  // namespace tegula::ir::optimizations::testing
