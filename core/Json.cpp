#include "core/Json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <system_error>
#include <unordered_set>

namespace tegula {

// --- Value helpers --------------------------------------------------------------------------

Json Json::array(Array items) {
  Json j;
  j.kind_ = Kind::Array;
  j.arr_ = std::move(items);
  return j;
}

Json Json::object(Object members) {
  Json j;
  j.kind_ = Kind::Object;
  j.obj_ = std::move(members);
  return j;
}

const Json* Json::find(std::string_view key) const {
  if (kind_ != Kind::Object) return nullptr;
  for (const Member& m : obj_) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

Json& Json::set(std::string key, Json value) {
  TG_ASSERT(kind_ == Kind::Object, "Json::set on a value that is not an object");
  for (Member& m : obj_) {
    if (m.first == key) {
      m.second = std::move(value);
      return m.second;
    }
  }
  obj_.emplace_back(std::move(key), std::move(value));
  return obj_.back().second;
}

Json& Json::push(Json value) {
  TG_ASSERT(kind_ == Kind::Array, "Json::push on a value that is not an array");
  arr_.push_back(std::move(value));
  return arr_.back();
}

size_t Json::size() const {
  if (kind_ == Kind::Array) return arr_.size();
  if (kind_ == Kind::Object) return obj_.size();
  return 0;
}

bool Json::operator==(const Json& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::Null: return true;
    case Kind::Bool: return bool_ == other.bool_;
    case Kind::Number:
      // Two integers compare exactly; otherwise compare as doubles (1 == 1.0).
      if (is_int_ && other.is_int_) return int_ == other.int_;
      return num_ == other.num_;
    case Kind::String: return str_ == other.str_;
    case Kind::Array: return arr_ == other.arr_;
    case Kind::Object: return obj_ == other.obj_;
  }
  return false;
}

// --- Writer ---------------------------------------------------------------------------------

namespace {

void dump_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);  // UTF-8 passes through unchanged
        }
    }
  }
  out += '"';
}

void dump_double(std::string& out, double v) {
  // JSON has no NaN or Inf; null is the only honest spelling.
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  // The shortest text that reads back as the same double: deterministic, and unlike
  // printf it does not depend on the C locale's decimal point.
  char buf[64];
  std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
  std::string_view text(buf, size_t(r.ptr - buf));
  out += text;
  // Keep a double a double when read back: "1" would come back as an integer.
  if (text.find_first_of(".eE") == std::string_view::npos) out += ".0";
}

void newline(std::string& out, int indent, int depth) {
  if (indent < 0) return;
  out += '\n';
  out.append(size_t(indent) * size_t(depth), ' ');
}

void dump_value(std::string& out, const Json& j, int indent, int depth) {
  switch (j.kind()) {
    case Json::Kind::Null: out += "null"; return;
    case Json::Kind::Bool: out += j.as_bool() ? "true" : "false"; return;
    case Json::Kind::Number:
      if (j.is_int()) {
        out += std::to_string(j.as_int());
      } else {
        dump_double(out, j.as_double());
      }
      return;
    case Json::Kind::String: dump_string(out, j.as_string()); return;
    case Json::Kind::Array: {
      out += '[';
      bool first = true;
      for (const Json& item : j.items()) {
        if (!first) out += ',';
        first = false;
        newline(out, indent, depth + 1);
        dump_value(out, item, indent, depth + 1);
      }
      if (!j.items().empty()) newline(out, indent, depth);
      out += ']';
      return;
    }
    case Json::Kind::Object: {
      out += '{';
      bool first = true;
      for (const Json::Member& m : j.members()) {
        if (!first) out += ',';
        first = false;
        newline(out, indent, depth + 1);
        dump_string(out, m.first);
        out += indent < 0 ? ":" : ": ";
        dump_value(out, m.second, indent, depth + 1);
      }
      if (!j.members().empty()) newline(out, indent, depth);
      out += '}';
      return;
    }
  }
}

}  // namespace

std::string Json::dump(int indent) const {
  std::string out;
  dump_value(out, *this, indent, 0);
  return out;
}

// --- Parser ---------------------------------------------------------------------------------

namespace {

/// Deep enough for any real manifest, shallow enough that recursion cannot exhaust the stack.
constexpr int kMaxDepth = 512;

class Parser {
public:
  Parser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Result<Json> parse_document() {
    skip_ws();
    Json value;
    TG_RETURN_IF_ERROR(parse_value(value, 0));
    skip_ws();
    if (pos_ != text_.size()) return fail("expected end of input after the json value");
    return value;
  }

private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  /// Line and column (both from 1, column in bytes) of the byte at `offset`.
  SourceLoc loc_at(size_t offset) const {
    int line = 1;
    int column = 1;
    for (size_t i = 0; i < offset && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return SourceLoc{file_, line, column};
  }

  Status fail_at(size_t offset, const std::string& message) const {
    return Status(ErrorCode::Parse, message, loc_at(offset));
  }
  Status fail(const std::string& message) const { return fail_at(pos_, message); }

  /// Describe what sits at the current position, for "expected X, found Y" messages.
  std::string found() const {
    if (at_end()) return "end of input";
    unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c < 0x20 || c >= 0x7f) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
      return buf;
    }
    return std::string("'") + char(c) + "'";
  }

  void skip_ws() {
    while (!at_end()) {
      char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++pos_;
    }
  }

  Status parse_value(Json& out, int depth) {
    if (depth >= kMaxDepth) return fail("nesting deeper than " + std::to_string(kMaxDepth));
    char c = peek();
    switch (c) {
      case '{': return parse_object(out, depth);
      case '[': return parse_array(out, depth);
      case '"': {
        std::string s;
        TG_RETURN_IF_ERROR(parse_string(s));
        out = Json(std::move(s));
        return Status::ok();
      }
      case 't': return parse_literal("true", Json(true), out);
      case 'f': return parse_literal("false", Json(false), out);
      case 'n': return parse_literal("null", Json(), out);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return parse_number(out);
        return fail("expected a json value, found " + found());
    }
  }

  Status parse_literal(std::string_view word, Json value, Json& out) {
    if (text_.substr(pos_, word.size()) != word) {
      return fail("expected '" + std::string(word) + "'");
    }
    pos_ += word.size();
    out = std::move(value);
    return Status::ok();
  }

  Status parse_array(Json& out, int depth) {
    ++pos_;  // '['
    out = Json::array();
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      return Status::ok();
    }
    while (true) {
      skip_ws();
      Json item;
      TG_RETURN_IF_ERROR(parse_value(item, depth + 1));
      out.push(std::move(item));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        skip_ws();
        // RFC 8259 has no trailing commas; say so plainly rather than "expected a value".
        if (peek() == ']') return fail("expected a json value after ',', found ']'");
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return Status::ok();
      }
      return fail("expected ',' or ']' in array, found " + found());
    }
  }

  Status parse_object(Json& out, int depth) {
    ++pos_;  // '{'
    out = Json::object();
    // A set, not out.find(): a hostile object with many keys must not cost O(n^2).
    std::unordered_set<std::string> seen;
    skip_ws();
    if (peek() == '}') {
      ++pos_;
      return Status::ok();
    }
    while (true) {
      skip_ws();
      if (peek() != '"') {
        if (peek() == '}') return fail("expected a string key after ',', found '}'");
        return fail("expected a string key in object, found " + found());
      }
      size_t key_pos = pos_;
      std::string key;
      TG_RETURN_IF_ERROR(parse_string(key));
      if (!seen.insert(key).second) return fail_at(key_pos, "duplicate object key \"" + key + "\"");
      skip_ws();
      if (peek() != ':') return fail("expected ':' after object key, found " + found());
      ++pos_;
      skip_ws();
      Json value;
      TG_RETURN_IF_ERROR(parse_value(value, depth + 1));
      out.members().emplace_back(std::move(key), std::move(value));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return Status::ok();
      }
      return fail("expected ',' or '}' in object, found " + found());
    }
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  /// Read the four hex digits of a \u escape (pos_ at the first digit).
  Status parse_hex4(uint32_t& out) {
    out = 0;
    for (int i = 0; i < 4; ++i) {
      int d = at_end() ? -1 : hex_digit(text_[pos_]);
      if (d < 0) return fail("expected 4 hex digits in \\u escape");
      out = out * 16 + uint32_t(d);
      ++pos_;
    }
    return Status::ok();
  }

  static void append_utf8(std::string& s, uint32_t cp) {
    if (cp < 0x80) {
      s += char(cp);
    } else if (cp < 0x800) {
      s += char(0xC0 | (cp >> 6));
      s += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += char(0xE0 | (cp >> 12));
      s += char(0x80 | ((cp >> 6) & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    } else {
      s += char(0xF0 | (cp >> 18));
      s += char(0x80 | ((cp >> 12) & 0x3F));
      s += char(0x80 | ((cp >> 6) & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    }
  }

  /// pos_ at the backslash. Surrogate pairs must come as two consecutive \u escapes.
  Status parse_escape(std::string& s) {
    size_t start = pos_;
    ++pos_;
    if (at_end()) return fail("expected an escape character after '\\'");
    char c = text_[pos_++];
    switch (c) {
      case '"': s += '"'; return Status::ok();
      case '\\': s += '\\'; return Status::ok();
      case '/': s += '/'; return Status::ok();
      case 'b': s += '\b'; return Status::ok();
      case 'f': s += '\f'; return Status::ok();
      case 'n': s += '\n'; return Status::ok();
      case 'r': s += '\r'; return Status::ok();
      case 't': s += '\t'; return Status::ok();
      case 'u': break;
      default: return fail_at(pos_ - 1, "expected a valid escape character after '\\'");
    }
    uint32_t cp;
    TG_RETURN_IF_ERROR(parse_hex4(cp));
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
      return fail_at(start, "expected a high surrogate before a low surrogate escape");
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (text_.substr(pos_, 2) != "\\u") {
        return fail("expected a low surrogate escape after a high surrogate");
      }
      size_t low_start = pos_;
      pos_ += 2;
      uint32_t low;
      TG_RETURN_IF_ERROR(parse_hex4(low));
      if (low < 0xDC00 || low > 0xDFFF) {
        return fail_at(low_start, "expected a low surrogate escape after a high surrogate");
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(s, cp);
    return Status::ok();
  }

  /// Validate one UTF-8 sequence starting at pos_ and copy it (RFC 3629: no overlongs, no
  /// surrogates, nothing above U+10FFFF).
  Status copy_utf8(std::string& s) {
    auto byte = [&](size_t i) -> unsigned { return static_cast<unsigned char>(text_[i]); };
    unsigned b0 = byte(pos_);
    size_t len;
    uint32_t cp;
    uint32_t min;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      len = 2, cp = b0 & 0x1F, min = 0x80;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      len = 3, cp = b0 & 0x0F, min = 0x800;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      len = 4, cp = b0 & 0x07, min = 0x10000;
    } else {
      return fail("invalid utf-8 in string");
    }
    if (pos_ + len > text_.size()) return fail("invalid utf-8 in string");
    for (size_t i = 1; i < len; ++i) {
      unsigned b = byte(pos_ + i);
      if ((b & 0xC0) != 0x80) return fail("invalid utf-8 in string");
      cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return fail("invalid utf-8 in string");
    }
    s.append(text_.substr(pos_, len));
    pos_ += len;
    return Status::ok();
  }

  Status parse_string(std::string& s) {
    size_t open = pos_;
    ++pos_;  // '"'
    while (true) {
      if (at_end()) return fail_at(open, "expected '\"' to close the string");
      unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return Status::ok();
      }
      if (c == '\\') {
        TG_RETURN_IF_ERROR(parse_escape(s));
      } else if (c < 0x20) {
        return fail("unescaped control character in string");
      } else if (c >= 0x80) {
        TG_RETURN_IF_ERROR(copy_utf8(s));
      } else {
        s += char(c);
        ++pos_;
      }
    }
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  Status parse_number(Json& out) {
    size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (!is_digit(peek())) return fail("expected a digit in number");
    if (peek() == '0') {
      ++pos_;
      if (is_digit(peek())) return fail("leading zeros are not allowed in numbers");
    } else {
      while (is_digit(peek())) ++pos_;
    }
    bool integral = true;
    if (peek() == '.') {
      integral = false;
      ++pos_;
      if (!is_digit(peek())) return fail("expected a digit after '.' in number");
      while (is_digit(peek())) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!is_digit(peek())) return fail("expected a digit in the exponent of number");
      while (is_digit(peek())) ++pos_;
    }
    std::string_view lit = text_.substr(start, pos_ - start);
    const char* first = lit.data();
    const char* last = lit.data() + lit.size();
    if (integral) {
      int64_t v = 0;
      std::from_chars_result r = std::from_chars(first, last, v);
      if (r.ec == std::errc() && r.ptr == last) {
        out = Json(v);
        return Status::ok();
      }
      // Too large for int64: fall back to a double, as RFC 8259 allows.
    }
    double d = 0;
    std::from_chars_result r = std::from_chars(first, last, d);
    if (r.ec == std::errc::result_out_of_range) {
      // from_chars reports underflow and overflow alike; tell them apart by magnitude.
      if (decimal_magnitude(lit) >= 0) return fail_at(start, "number out of range");
      d = lit[0] == '-' ? -0.0 : 0.0;
    } else if (r.ec != std::errc() || r.ptr != last) {
      return fail_at(start, "expected a number");
    }
    out = Json(d);
    return Status::ok();
  }

  /// Roughly floor(log10(|value|)) of a validated number literal with a non-zero digit; only
  /// its sign matters, to classify an out-of-range literal as overflow or underflow.
  static long decimal_magnitude(std::string_view lit) {
    size_t i = lit[0] == '-' ? 1 : 0;
    long int_digits = 0;
    long first_nonzero = -1;  // position among all mantissa digits
    long position = 0;
    bool in_fraction = false;
    for (; i < lit.size() && lit[i] != 'e' && lit[i] != 'E'; ++i) {
      if (lit[i] == '.') {
        in_fraction = true;
        continue;
      }
      if (!in_fraction) ++int_digits;
      if (lit[i] != '0' && first_nonzero < 0) first_nonzero = position;
      ++position;
    }
    long exponent = 0;
    if (i < lit.size()) {
      ++i;
      bool negative = lit[i] == '-';
      if (lit[i] == '+' || lit[i] == '-') ++i;
      for (; i < lit.size(); ++i) {
        if (exponent < 1000000) exponent = exponent * 10 + (lit[i] - '0');
      }
      if (negative) exponent = -exponent;
    }
    if (first_nonzero < 0) return -1;  // zero never overflows
    return int_digits - first_nonzero - 1 + exponent;
  }

  std::string_view text_;
  const std::string& file_;
  size_t pos_ = 0;
};

}  // namespace

Result<Json> Json::parse(std::string_view text, const std::string& file) {
  Parser parser(text, file);
  return parser.parse_document();
}

}  // namespace tegula
