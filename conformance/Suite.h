/// \file
/// The suite: every case for one target description, in a fixed order, and its identity.
///
/// The case list is a function of the target description alone (and the suite version), so
/// the runner, its workers and `verify` all rebuild exactly the same list; its hash covers
/// every case's name, kernel, launch, values and check.
#pragma once

#include <string>
#include <vector>

#include "conformance/Case.h"
#include "conformance/Glob.h"
#include "targets/Target.h"

namespace tegula::conformance {

/// Bumped whenever cases change in a way that changes what a result means.
inline constexpr const char* kSuiteVersion = "tegula-conformance 1.0";

/// The cases for a device of `target`, every family, names unique.
std::vector<CaseSpec> build_suite(const TargetDescription& target);

/// The CompileOnly cases for compiling offline to `target` (no device of it present).
std::vector<CaseSpec> build_offline_suite(const TargetDescription& target);

/// SHA-256 over the canonical text of every case (see case_text).
std::string case_list_hash(const std::vector<CaseSpec>& cases);
/// One case as canonical text: everything that defines it.
std::string case_text(const CaseSpec& c);

/// The quick profile (for development, not certification): at most `per_row` cases of
/// each report row.
std::vector<CaseSpec> quick_subset(const std::vector<CaseSpec>& cases, int per_row = 2);

/// The cases a run selects: the quick subset when asked, then the filter, in suite order.
std::vector<CaseSpec> select_cases(const std::vector<CaseSpec>& cases, bool quick, const Filter& filter);

}  // namespace tegula::conformance
