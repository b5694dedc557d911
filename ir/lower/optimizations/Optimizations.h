/// \file
/// The optimization matrix: which optimizations the lowering applies on which target, each
/// cell computed, never typed. A row (rows/*.cpp, listed once in OptimizationList.h) names
/// one optimization with a short description, a small solution kernel that should trigger
/// it, what in a target description makes it possible at all, and a detector that finds the
/// marker proving it in the kernel the lowering produced (an annotation of the lowered form,
/// ir/lower/README.md) and the lowering's explain log. A cell lowers the row's kernel for the
/// target in process (ir::lower) and runs the detector.
///
/// Lives beside the passes it checks and needs only ir/ and targets/ (no device, no
/// runtime), so `tegula optimizations` and the conformance report both link it without the
/// runtime linking the suite.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Json.h"
#include "ir/Lower.h"
#include "targets/Target.h"

namespace tegula::ir::optimizations {

/// What the detector found in a lowered kernel: whether the optimization's marker is there,
/// and the marker itself (or, when absent, what the lowering did instead).
struct Evidence {
  bool found = false;
  std::string marker;
};

struct Optimization {
  const char* id;           ///< a stable key ("bulk_tensor_copy")
  const char* title;        ///< what a person reads in the matrix
  const char* description;  ///< one or two sentences: what it is and why it helps
  const char* kernel;       ///< the solution kernel (.tile text) that should trigger it
  /// Why the optimization cannot apply on `target`, from its description ("no
  /// bulk_tensor_copy feature"); empty when the target could use it.
  std::string (*not_applicable)(const TargetDescription& target);
  /// Non-null: the lowering does not do this yet (where the target could use it), and why.
  const char* not_yet = nullptr;
  /// Finds the marker in the lowered kernel and its log; null for a row that is not yet.
  Evidence (*detect)(const LowerResult& lowered) = nullptr;
  /// Lowering options the kernel needs (rasterisation is a compile option).
  int64_t raster_group = 0;
};

/// Every row, in the order of OptimizationList.h.
const std::vector<const Optimization*>& all_optimizations();
/// The row with this id, or null.
const Optimization* find_optimization(const std::string& id);

enum class CellState { Applies, NotApplicable, NotYet, Missed };

/// "applies", "not_applicable", "not_yet", "missed" (the JSON names).
const char* cell_state_name(CellState s);
/// The short mark of a matrix cell: "yes", "n/a", "not yet", "MISSED".
const char* cell_mark(CellState s);

struct Cell {
  CellState state = CellState::NotYet;
  /// Applies: the marker that proves it. NotApplicable, NotYet: why. Missed: what the
  /// lowering did instead, or its error (the target could use it and the lowering did not
  /// apply it to the solution kernel: a gap to look at).
  std::string reason;
  /// The measured effect with the optimization on and off, where a device ran it; "not
  /// measured" until a measurement hook fills it (see measure below).
  std::string measured = "not measured";
};

/// One cell: the row on the target.
Cell evaluate(const Optimization& row, const TargetDescription& target);

/// A column of the matrix: its label (a target or device name) and description.
struct Column {
  std::string label;
  const TargetDescription* target;
};

/// Every row on every column, cells[row][column].
struct Matrix {
  std::vector<const Optimization*> rows;
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> cells;
};
/// The hook for the measured effect of a cell where a device ran it with the optimization on
/// and off (bank conflicts, bandwidth, TFLOP/s): returns the figure as text, or "" for "not
/// measured". The conformance report fills its cells from the performance section's figure
/// pairs instead (conformance/perf/PerfEffects.h), after compute_matrix.
using Measure = std::string (*)(const Optimization& row, const Column& column, const Cell& cell);
Matrix compute_matrix(const std::vector<Column>& columns, Measure measure = nullptr);

/// The matrix as a table of short marks, one line per row (for `tegula optimizations`).
std::string matrix_text(const Matrix& m);
/// One column's cells with their reasons and the rows' descriptions.
std::string column_text(const Matrix& m, size_t column);
/// {"schema", "columns": [...], "rows": [{"id", "title", "description", "cells": {column:
/// {"state", "reason", "measured"}}}]}: what the conformance report embeds and verify
/// recomputes.
Json matrix_json(const Matrix& m);

inline constexpr const char* kMatrixSchema = "tegula.optimizations.v1";

}  // namespace tegula::ir::optimizations
