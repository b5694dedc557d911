/// \file
/// One result: what a worker reports for a case and what the report stores. Records are
/// JSON objects with a fixed key order, so reports are byte-stable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conformance/Compare.h"
#include "conformance/Outcome.h"
#include "core/Json.h"
#include "core/Status.h"

namespace tegula::conformance {

struct Record {
  std::string name;
  std::string row;
  Outcome outcome = Outcome::Fail;
  /// The check that decided a failure: compile, launch, guard, input, values,
  /// nondeterminism, instruction, oracle, worker; "" otherwise.
  std::string check;
  std::string detail;
  int64_t elements = 0;
  int64_t mismatches = 0;
  double max_abs = 0, max_rel = 0, max_ulp = 0;
  std::optional<Mismatch> first_mismatch;
  std::vector<std::pair<std::string, int64_t>> shape;
  uint64_t seed = 0;
  double ms = 0;
  std::string kernel_sha256;
  /// Set by the runner when the plugin's expectation list names the case: the reason.
  std::string expected_failure;

  Json to_json() const;
  static Result<Record> from_json(const Json& j);
};

}  // namespace tegula::conformance
