/// \file
/// The closed set of results a conformance case can have, and which of them certify.
///
///   Pass            the device computed what the reference interpreter computed, within
///                   the tolerance table, twice, without touching anything else
///   Fail            it did not (wrong values, a guard or input overwritten, a second run
///                   that differs, a compile or launch error for something it claims)
///   NotSupported    the device's target description does not claim what the case needs
///   CompileOnly     compiled offline for a target with no device here, and checked
///   QualityWarning  within tolerance, but less accurate than the table's quality bound
///   Crash           the worker process running the case died
///   Timeout         the case ran past the watchdog and its worker was killed
///
/// A conformant run holds only Pass, NotSupported, CompileOnly and QualityWarning (and
/// failures the plugin's expectation list names).
#pragma once

#include <optional>
#include <string_view>

namespace tegula::conformance {

#define TG_FOR_EACH_OUTCOME(X)          \
  X(Pass, "Pass")                       \
  X(Fail, "Fail")                       \
  X(NotSupported, "NotSupported")       \
  X(CompileOnly, "CompileOnly")         \
  X(QualityWarning, "QualityWarning")   \
  X(Crash, "Crash")                     \
  X(Timeout, "Timeout")

enum class Outcome : unsigned char {
#define TG_OUTCOME_ENUM(e, name) e,
  TG_FOR_EACH_OUTCOME(TG_OUTCOME_ENUM)
#undef TG_OUTCOME_ENUM
};

inline constexpr int kNumOutcomes = 7;

const char* outcome_name(Outcome o);
std::optional<Outcome> parse_outcome(std::string_view name);
/// Fail, Crash and Timeout: the outcomes that make a run non-conformant.
bool is_failure(Outcome o);
/// Pass, CompileOnly and QualityWarning: the case was exercised and held.
bool is_success(Outcome o);

}  // namespace tegula::conformance
