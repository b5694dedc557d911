#include "conformance/Outcome.h"

#include <optional>
#include <string_view>

namespace tegula::conformance {

const char* outcome_name(Outcome o) {
  switch (o) {
#define TG_OUTCOME_NAME(e, name) \
  case Outcome::e: return name;
    TG_FOR_EACH_OUTCOME(TG_OUTCOME_NAME)
#undef TG_OUTCOME_NAME
  }
  return "?";
}

std::optional<Outcome> parse_outcome(std::string_view name) {
#define TG_OUTCOME_PARSE(e, n) \
  if (name == n) return Outcome::e;
  TG_FOR_EACH_OUTCOME(TG_OUTCOME_PARSE)
#undef TG_OUTCOME_PARSE
  return std::nullopt;
}

bool is_failure(Outcome o) { return o == Outcome::Fail || o == Outcome::Crash || o == Outcome::Timeout; }

bool is_success(Outcome o) {
  return o == Outcome::Pass || o == Outcome::CompileOnly || o == Outcome::QualityWarning;
}

}  // namespace tegula::conformance
