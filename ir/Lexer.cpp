#include "ir/Lexer.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace tegula::ir {

const char* token_name(Tok kind) {
  switch (kind) {
    case Tok::End: return "end of input";
    case Tok::Error: return "invalid token";
    case Tok::Ident: return "identifier";
    case Tok::Int: return "integer";
    case Tok::Float: return "number";
    case Tok::String: return "string";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::Comma: return "','";
    case Tok::Colon: return "':'";
    case Tok::Assign: return "'='";
    case Tok::DotDot: return "'..'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Slash: return "'/'";
    case Tok::Percent: return "'%'";
    case Tok::Lt: return "'<'";
    case Tok::Le: return "'<='";
    case Tok::Gt: return "'>'";
    case Tok::Ge: return "'>='";
    case Tok::EqEq: return "'=='";
    case Tok::Ne: return "'!='";
    case Tok::AndAnd: return "'&&'";
    case Tok::OrOr: return "'||'";
    case Tok::Bang: return "'!'";
    case Tok::Amp: return "'&'";
    case Tok::Pipe: return "'|'";
    case Tok::Caret: return "'^'";
    case Tok::Tilde: return "'~'";
    case Tok::Shl: return "'<<'";
    case Tok::Shr: return "'>>'";
    case Tok::ShrLogical: return "'>>>'";
  }
  return "token";
}

namespace {

/// Whether the digits before the exponent of a float literal are not all zero.
bool has_nonzero_mantissa(const std::string& text) {
  for (char c : text) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') return true;
  }
  return false;
}

class Lexer {
public:
  explicit Lexer(std::string_view src) : src_(src) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_space_and_comments();
      Token t = next();
      bool stop = t.kind == Tok::End || t.kind == Tok::Error;
      out.push_back(std::move(t));
      if (stop) return out;
    }
  }

private:
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  bool at_end() const { return pos_ >= src_.size(); }

  void advance() {
    if (at_end()) return;
    if (src_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  void skip_space_and_comments() {
    while (!at_end()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        advance();
        continue;
      }
      if (c == '/' && peek(1) == '/') {
        while (!at_end() && peek() != '\n') advance();
        continue;
      }
      return;
    }
  }

  Token make(Tok kind, int line, int col, std::string text = {}) {
    Token t;
    t.kind = kind;
    t.line = line;
    t.column = col;
    t.text = std::move(text);
    return t;
  }

  static bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  Token next() {
    int line = line_, col = col_;
    if (at_end()) return make(Tok::End, line, col);
    char c = peek();
    if (is_ident_start(c)) {
      size_t start = pos_;
      while (is_ident_start(peek()) || is_digit(peek()) || peek() == '.') {
        // A '.' continues a dotted name (lowering attributes such as plan.vec), but never
        // a '..' range.
        if (peek() == '.' && (peek(1) == '.' || !is_ident_start(peek(1)))) break;
        advance();
      }
      return make(Tok::Ident, line, col, std::string(src_.substr(start, pos_ - start)));
    }
    if (is_digit(c)) return number(line, col);
    if (c == '"') return string(line, col);
    advance();
    auto two = [&](char second, Tok yes, Tok no) {
      if (peek() == second) {
        advance();
        return make(yes, line, col);
      }
      return make(no, line, col);
    };
    switch (c) {
      case '(': return make(Tok::LParen, line, col);
      case ')': return make(Tok::RParen, line, col);
      case '[': return make(Tok::LBracket, line, col);
      case ']': return make(Tok::RBracket, line, col);
      case '{': return make(Tok::LBrace, line, col);
      case '}': return make(Tok::RBrace, line, col);
      case ',': return make(Tok::Comma, line, col);
      case ':': return make(Tok::Colon, line, col);
      case '+': return make(Tok::Plus, line, col);
      case '-': return make(Tok::Minus, line, col);
      case '*': return make(Tok::Star, line, col);
      case '/': return make(Tok::Slash, line, col);
      case '%': return make(Tok::Percent, line, col);
      case '=': return two('=', Tok::EqEq, Tok::Assign);
      case '<':
        if (peek() == '<') {
          advance();
          return make(Tok::Shl, line, col);
        }
        return two('=', Tok::Le, Tok::Lt);
      case '>':
        // '>>' and '>>>' are shifts; no other syntax puts two '>' side by side (cast<d>
        // closes with one, followed by '(').
        if (peek() == '>') {
          advance();
          return two('>', Tok::ShrLogical, Tok::Shr);
        }
        return two('=', Tok::Ge, Tok::Gt);
      case '^': return make(Tok::Caret, line, col);
      case '~': return make(Tok::Tilde, line, col);
      case '!': return two('=', Tok::Ne, Tok::Bang);
      case '.':
        if (peek() == '.') {
          advance();
          return make(Tok::DotDot, line, col);
        }
        return make(Tok::Error, line, col, "unexpected '.'");
      case '&':
        if (peek() == '&') {
          advance();
          return make(Tok::AndAnd, line, col);
        }
        return make(Tok::Amp, line, col);
      case '|':
        if (peek() == '|') {
          advance();
          return make(Tok::OrOr, line, col);
        }
        return make(Tok::Pipe, line, col);
      default: break;
    }
    unsigned char uc = static_cast<unsigned char>(c);
    char buf[64];
    if (uc >= 0x20 && uc < 0x7f)
      std::snprintf(buf, sizeof buf, "unexpected character '%c'", c);
    else
      std::snprintf(buf, sizeof buf, "unexpected byte 0x%02x", uc);
    return make(Tok::Error, line, col, buf);
  }

  /// 0x... : an integer in hexadecimal (bit masks read better so: 0xf, 0x7fffffff). It is
  /// an ordinary integer literal (printed back in decimal), at most INT64_MAX.
  Token hex_number(int line, int col) {
    size_t start = pos_;
    advance();
    advance();
    auto is_hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); };
    if (!is_hex(peek())) return make(Tok::Error, line, col, "'0x' must be followed by hexadecimal digits");
    while (is_hex(peek())) advance();
    if (is_ident_start(peek()) || peek() == '.')
      return make(Tok::Error, line, col, "a hexadecimal literal must not be followed by a letter or '.'");
    std::string text(src_.substr(start, pos_ - start));
    Token t = make(Tok::Int, line, col, text);
    errno = 0;
    t.int_value = std::strtoll(text.c_str() + 2, nullptr, 16);
    if (errno == ERANGE) return make(Tok::Error, line, col, "integer literal out of range");
    return t;
  }

  Token number(int line, int col) {
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) return hex_number(line, col);
    size_t start = pos_;
    bool is_float = false;
    while (is_digit(peek())) advance();
    if (peek() == '.' && is_digit(peek(1))) {
      is_float = true;
      advance();
      while (is_digit(peek())) advance();
    }
    if (peek() == 'e' || peek() == 'E') {
      size_t save_pos = pos_;
      int save_line = line_, save_col = col_;
      advance();
      if (peek() == '+' || peek() == '-') advance();
      if (!is_digit(peek())) {
        pos_ = save_pos;
        line_ = save_line;
        col_ = save_col;
      } else {
        is_float = true;
        while (is_digit(peek())) advance();
      }
    }
    if (is_ident_start(peek()))
      return make(Tok::Error, line, col, "a number must not be followed by a letter");
    std::string text(src_.substr(start, pos_ - start));
    Token t = make(is_float ? Tok::Float : Tok::Int, line, col, text);
    errno = 0;
    if (is_float) {
      t.float_value = std::strtod(text.c_str(), nullptr);
      // A literal that becomes inf or 0 would silently compute something else; a subnormal
      // result (also ERANGE) is exact enough to keep.
      if (std::isinf(t.float_value)) return make(Tok::Error, line, col, "float literal out of range (larger than the largest double)");
      if (t.float_value == 0.0 && has_nonzero_mantissa(text))
        return make(Tok::Error, line, col, "float literal out of range (smaller than the smallest double, it would be 0)");
      return t;
    }
    t.int_value = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == ERANGE) return make(Tok::Error, line, col, "integer literal out of range");
    return t;
  }

  Token string(int line, int col) {
    advance();  // opening quote
    std::string value;
    while (!at_end() && peek() != '"') {
      char c = peek();
      if (c == '\n') return make(Tok::Error, line, col, "unterminated string");
      if (c == '\\') {
        advance();
        char e = peek();
        if (e == '"' || e == '\\') {
          value.push_back(e);
        } else if (e == 'n') {
          value.push_back('\n');
        } else {
          return make(Tok::Error, line_, col_, "unknown escape in string");
        }
        advance();
        continue;
      }
      value.push_back(c);
      advance();
    }
    if (at_end()) return make(Tok::Error, line, col, "unterminated string");
    advance();  // closing quote
    return make(Tok::String, line, col, std::move(value));
  }

  std::string_view src_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) { return Lexer(source).run(); }

}  // namespace tegula::ir
