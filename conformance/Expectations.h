/// \file
/// Per-plugin expected-failure lists: conformance/expectations/<plugin>.json, installed to
/// share/tegula/conformance/expectations. Each entry names cases by glob (and optionally
/// devices by glob) with the reason, and ideally an issue link:
///
///   {"schema": "tegula.conformance.expectations.v1", "plugin": "cpu",
///    "expected_failures": [
///      {"cases": "tegula.map.exp.f16.*", "reason": "exp is computed in f16", "issue": "..."}]}
///
/// A Fail, Crash or Timeout that an entry names does not fail the run; the record keeps its
/// outcome and carries the reason. A case an entry names that passes is an unexpected pass,
/// and an entry that names nothing is stale: both fail the run under --strict, so entries
/// are removed once the plugin is fixed.
#pragma once

#include <string>
#include <vector>

#include "core/Json.h"
#include "core/Status.h"

namespace tegula::conformance {

struct Expectation {
  std::string cases;
  std::string devices = "*";
  std::string reason;
  std::string issue;
};

struct ExpectationList {
  std::string plugin;
  std::string source;  ///< the file it came from, "" when the plugin has none
  std::vector<Expectation> entries;

  static Result<ExpectationList> parse(const std::string& text, const std::string& source);
  /// <dir>/<plugin>.json, or an empty list when there is no such file.
  static Result<ExpectationList> load(const std::string& dir, const std::string& plugin);

  /// The entry naming this case on this device, or nullptr.
  const Expectation* find(const std::string& device, const std::string& case_name) const;
  Json to_json() const;
};

}  // namespace tegula::conformance
