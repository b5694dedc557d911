/// \file
/// Numbers on the `tegula conformance` command line, parsed whole and range-checked: a
/// value with trailing text, out of range, or not finite is refused with the option's name,
/// never read as 0 or wrapped (an unchecked atof/atoi turned "--timeout inf" into a deadline
/// that overflowed int64 and "--jobs abc" into zero workers).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tegula::conformance {

/// The longest per-case timeout accepted, in seconds (a week): its deadline in
/// milliseconds stays far inside int64.
inline constexpr double kMaxTimeoutSeconds = 7 * 24 * 3600;

/// A decimal integer in [min, max]; nullopt (with a message naming `option` on stderr)
/// for anything else.
std::optional<int64_t> parse_int_option(const std::string& option, const std::string& text, int64_t min, int64_t max);

/// A decimal unsigned 64-bit integer (a seed); nullopt with a message otherwise.
std::optional<uint64_t> parse_u64_option(const std::string& option, const std::string& text);

/// A finite number of seconds in (0, kMaxTimeoutSeconds]; nullopt with a message otherwise.
std::optional<double> parse_seconds_option(const std::string& option, const std::string& text);

}  // namespace tegula::conformance
