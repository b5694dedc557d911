/// \file
/// Tunable kernels (ir/Tunables.h) in the runtime: shape classes, the binding chosen for
/// each, and the compile cache's record of that choice.
///
/// A launch's shape class is whether every tensor starts 16-byte aligned and, per shape
/// symbol, the power of two (at most 16) dividing its value and its size bucket (half
/// octaves: 1000 and 1024 share one, 1536 starts the next). The binding for a class is, in
/// order: the one the kernel recorded in this process; the one the compile cache holds for
/// this kernel text, target, plugin build, runtime build and class (tegula tune measures
/// one and records it); else the ranking's first at the launch's values
/// (ir/schedule/Rank.h), which is recorded too, so a later process does not rank again and
/// no launch ever measures. Records are cache entries like executables (the same integrity,
/// binding and ownership checks), under keys of their own.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/Lower.h"
#include "ir/Tunables.h"
#include "runtime/Objects.h"

namespace tegula::runtime {

/// Half-octave bucket of a size: 2 * floor(log2 v) plus one in the upper half; 0 for v < 1.
int64_t size_bucket(int64_t v);

/// "aligned M%16:b24 N%16:b26 K%1:b19"-style text naming a class (the record's key part).
std::string shape_class_text(const std::vector<std::string>& symbols, const std::vector<int64_t>& values, bool aligned);

struct TuneChoice {
  ir::Binding binding;
  std::string chosen_by;  ///< "measured" (tegula tune) or "ranked"
  double measured_us = 0;
};

/// The binding for a launch of `k` (a tunable kernel) at `shape`, lowered with `lower`.
Result<TuneChoice> choose_binding(tegula_kernel* k, const std::map<std::string, int64_t>& shape,
                                  const ir::LowerOptions& lower, const std::string& class_text);

/// Record a choice for a class in the compile cache (tegula_kernel_record_tuning). Launches
/// of kernels compiled afterwards use it; variants `k` already compiled keep theirs.
Status record_choice(tegula_kernel* k, const std::string& class_text, const TuneChoice& choice);

}  // namespace tegula::runtime
