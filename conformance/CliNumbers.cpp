#include "conformance/CliNumbers.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tegula::conformance {
namespace {

std::nullopt_t refuse(const std::string& option, const std::string& text, const std::string& want) {
  std::fprintf(stderr, "tegula conformance: %s: '%s' is not %s\n", option.c_str(), text.c_str(), want.c_str());
  return std::nullopt;
}

/// Plain decimal digits, an optional leading '-' where allowed: strtoll/strtoull alone
/// accept leading spaces and '+', and strtoull wraps "-1".
bool is_decimal(const std::string& text, bool allow_minus) {
  size_t i = allow_minus && !text.empty() && text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return false;
  return true;
}

}  // namespace

std::optional<int64_t> parse_int_option(const std::string& option, const std::string& text, int64_t min, int64_t max) {
  std::string want = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  if (!is_decimal(text, true)) return refuse(option, text, want);
  errno = 0;
  long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v < min || v > max) return refuse(option, text, want);
  return int64_t(v);
}

std::optional<uint64_t> parse_u64_option(const std::string& option, const std::string& text) {
  const char* want = "an unsigned 64-bit decimal integer";
  if (!is_decimal(text, false)) return refuse(option, text, want);
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) return refuse(option, text, want);
  return uint64_t(v);
}

std::optional<double> parse_seconds_option(const std::string& option, const std::string& text) {
  std::string want = "a number of seconds above 0 and at most " + std::to_string(int64_t(kMaxTimeoutSeconds));
  if (text.empty()) return refuse(option, text, want);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(text.c_str(), &end);
  if (errno == ERANGE || *end != '\0' || !std::isfinite(v) || !(v > 0) || v > kMaxTimeoutSeconds)
    return refuse(option, text, want);
  return v;
}

}  // namespace tegula::conformance
