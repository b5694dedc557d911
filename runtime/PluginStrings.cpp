#include "runtime/PluginStrings.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace tegula::runtime {
namespace {

/// Length of the UTF-8 sequence starting at text[i], or 0 when it is invalid.
size_t utf8_sequence(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return uint8_t(text[k]); };
  uint8_t c = byte(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  uint32_t cp = 0, min = 0;
  if ((c & 0xe0) == 0xc0) n = 2, cp = c & 0x1f, min = 0x80;
  else if ((c & 0xf0) == 0xe0) n = 3, cp = c & 0x0f, min = 0x800;
  else if ((c & 0xf8) == 0xf0) n = 4, cp = c & 0x07, min = 0x10000;
  else return 0;
  if (i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

bool is_control(uint8_t c) { return c < 0x20 || c == 0x7f; }

}  // namespace

bool valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t n = utf8_sequence(text, i);
    if (!n) return false;
    i += n;
  }
  return true;
}

Result<std::string> plugin_string(const char* s, size_t max_bytes, std::string_view what) {
  if (!s) return error(ErrorCode::Plugin, std::string(what) + " is NULL");
  size_t n = ::strnlen(s, max_bytes + 1);
  if (n > max_bytes)
    return error(ErrorCode::Plugin, std::string(what) + " is longer than " + std::to_string(max_bytes) +
                                        " bytes (or not NUL-terminated)");
  std::string_view text(s, n);
  if (!valid_utf8(text)) return error(ErrorCode::Plugin, std::string(what) + " is not valid UTF-8");
  for (char c : text)
    if (is_control(uint8_t(c))) return error(ErrorCode::Plugin, std::string(what) + " contains control characters");
  return std::string(text);
}

std::string plugin_message(const char* s, size_t max_bytes) {
  if (!s) return "(no message)";
  size_t n = ::strnlen(s, max_bytes);
  std::string out = sanitized_text(std::string_view(s, n));
  if (n == max_bytes) out += "...";
  return out;
}

std::string one_line_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else out.push_back(c);
  }
  return out;
}

std::string sanitized_text(std::string_view text) {
  size_t n = text.size();
  std::string out;
  out.reserve(n);
  for (size_t i = 0; i < n;) {
    size_t len = utf8_sequence(text, i);
    if (!len) {
      out.push_back('?');
      ++i;
      continue;
    }
    uint8_t c = uint8_t(text[i]);
    if (len == 1 && is_control(c) && c != '\n' && c != '\t') out.push_back('?');
    else out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

}  // namespace tegula::runtime
