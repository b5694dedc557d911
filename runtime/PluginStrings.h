/// \file
/// Reading strings a plugin hands back. A plugin is foreign code: a string may be NULL, not
/// NUL-terminated, enormous or not text. The host scans at most a bounded number of bytes
/// and copies what it keeps, so nothing a plugin returns is ever trusted further.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/Status.h"

namespace tegula::runtime {

/// Limits: identity strings (names, versions) and free text (descriptions, messages).
inline constexpr size_t kMaxIdentityBytes = 256;
inline constexpr size_t kMaxTextBytes = 4096;
inline constexpr size_t kMaxMessageBytes = 64 * 1024;

/// A copy of `s`, or a Plugin error naming `what` when it is NULL, has no NUL within
/// `max_bytes`, is not valid UTF-8 or holds control characters.
Result<std::string> plugin_string(const char* s, size_t max_bytes, std::string_view what);

/// For error messages and log lines: never fails. NULL gives "(no message)"; the text is cut
/// at max_bytes; invalid UTF-8 and control characters other than tab and newline become '?'.
std::string plugin_message(const char* s, size_t max_bytes = kMaxMessageBytes);

/// Free text of known length (e.g. a disassembly): invalid UTF-8, NULs and control
/// characters other than tab and newline become '?'.
std::string sanitized_text(std::string_view text);
/// `text` on one line: newlines, carriage returns and tabs written as \n, \r, \t, so a
/// reason a plugin gives cannot add lines of its own to a listing or a log.
std::string one_line_text(std::string_view text);

/// Whether `text` is valid UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool valid_utf8(std::string_view text);

}  // namespace tegula::runtime
