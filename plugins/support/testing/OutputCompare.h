/// \file
/// The comparison every backend's tests make between a kernel's outputs on a device and the
/// reference interpreter's (float64 arithmetic, rounded once to the output dtype): one
/// Tolerance, one rule for special values, one description of the first mismatch.
///
/// Rule, per element: NaN matches NaN (any payload); otherwise a zero tolerance means the
/// same bits (so -0 is not +0), and a non-zero one means |got - want| <= abs + rel * |want|
/// with infinities matching only themselves.
///
/// Part of the plugin test harness (tegula::plugin_testing, installed with the SDK); no test
/// framework needed: results are Status values and plain structs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "examples/checks/Checks.h"
#include "ir/IR.h"

namespace tegula::plugin_testing {

/// How far a result may be from the reference: |got - want| <= abs + rel * |want|. Both zero
/// (the default) asks for the reference's exact bits.
struct Tolerance {
  double abs = 0;
  double rel = 0;
  bool exact() const { return abs == 0 && rel == 0; }
};

/// Equal values, where -0 may stand for +0 (a vectorised max may meet zeros in another
/// order): the smallest non-zero tolerance.
Tolerance same_value();

/// The relative size of `n` units in the last place of a float dtype (0 for other dtypes).
double ulps(DType d, double n);

/// `n` units in the last place of `d`, relative, plus `abs`.
Tolerance ulp_tolerance(DType d, double n, double abs = 0);

/// Results stored as `d` after float32 arithmetic: one rounding more than the float64
/// interpreter. Integers and bool are exact up to the rounding of .5 ties.
Tolerance default_tolerance(DType d);

/// Whether one element matches under the rule above (`g` and `w` point at one element of
/// dtype `d` each).
bool element_matches(DType d, const void* g, const void* w, Tolerance tol);

/// Every element of `got` against `want` (same dtype and size): the number that differ and
/// the first, described as "NAME[i]: got G, expected W". `name` labels the tensor.
examples::OutputComparison compare_tensor(const std::string& name, const examples::HostTensor& got,
                                          const examples::HostTensor& want, Tolerance tol);

/// The tolerance for an output tensor of a dtype.
using ToleranceFor = std::function<Tolerance(DType)>;

/// What one launch did, against the reference: each output compared, each input checked
/// unchanged. `before` is the data handed to both runs, `got` what the device left in it,
/// `want` what the interpreter did. Ok, or one error naming every tensor that is wrong (its
/// mismatch count and first mismatch, or "input 'X' was modified").
Status compare_launch(const ir::Kernel& k, const examples::LaunchData& before, const examples::LaunchData& got,
                      const examples::LaunchData& want, Tolerance tol);
/// The same with a tolerance per output dtype (default_tolerance, for instance).
Status compare_launch(const ir::Kernel& k, const examples::LaunchData& before, const examples::LaunchData& got,
                      const examples::LaunchData& want, const ToleranceFor& tol);

}  // namespace tegula::plugin_testing
