/// \file
/// The layout text parser. Grammar (spaces allowed between tokens):
///
///   layout  := node ':' node
///   node    := sum
///   sum     := product (('+' | '-') product)*
///   product := primary (('*' | '/' | '%') primary)*
///   primary := integer | symbol | '(' node (',' node)* ')'
///
/// A parenthesised list with one element is that element, so "(N/8)" is an expression and
/// "((4,8))" the tuple (4,8); a list of two or more is a tuple, and arithmetic on a tuple
/// is an error.
#include <cctype>
#include <cstdint>

#include "targets/Layout.h"

namespace tegula {

namespace {

class Parser {
public:
  explicit Parser(std::string_view text) : text_(text) {}

  /// Parse the whole text into `shape` and `stride`.
  Status run();

  LayoutTree shape, stride;

private:
  Result<LayoutTree> sum();
  Result<LayoutTree> product();
  Result<LayoutTree> primary();
  Result<LayoutTree> tuple();

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  Status fail(const std::string& what) const {
    std::string at = pos_ < text_.size() ? "'" + std::string(1, text_[pos_]) + "'" : "end of text";
    return error(ErrorCode::Parse, "layout \"" + std::string(text_) + "\": " + what + " at column " +
                                       std::to_string(pos_ + 1) + " (found " + at + ")");
  }
  Status fail_tuple_arithmetic(size_t column) const {
    return error(ErrorCode::Parse, "layout \"" + std::string(text_) +
                                       "\": arithmetic on a tuple at column " +
                                       std::to_string(column + 1));
  }

  std::string_view text_;
  size_t pos_ = 0;
};

static IntExpr::Op op_for(char c) {
  switch (c) {
    case '+': return IntExpr::Op::Add;
    case '-': return IntExpr::Op::Sub;
    case '*': return IntExpr::Op::Mul;
    case '/': return IntExpr::Op::Div;
    default: return IntExpr::Op::Mod;
  }
}

Result<LayoutTree> Parser::sum() {
  TG_ASSIGN_OR_RETURN(LayoutTree lhs, product());
  while (peek() == '+' || peek() == '-') {
    size_t op_pos = pos_;
    IntExpr::Op op = op_for(text_[pos_++]);
    TG_ASSIGN_OR_RETURN(LayoutTree rhs, product());
    if (!lhs.is_leaf() || !rhs.is_leaf()) return fail_tuple_arithmetic(op_pos);
    lhs.leaf = IntExpr::binary(op, std::move(lhs.leaf), std::move(rhs.leaf));
  }
  return lhs;
}

Result<LayoutTree> Parser::product() {
  TG_ASSIGN_OR_RETURN(LayoutTree lhs, primary());
  while (peek() == '*' || peek() == '/' || peek() == '%') {
    size_t op_pos = pos_;
    IntExpr::Op op = op_for(text_[pos_++]);
    TG_ASSIGN_OR_RETURN(LayoutTree rhs, primary());
    if (!lhs.is_leaf() || !rhs.is_leaf()) return fail_tuple_arithmetic(op_pos);
    lhs.leaf = IntExpr::binary(op, std::move(lhs.leaf), std::move(rhs.leaf));
  }
  return lhs;
}

Result<LayoutTree> Parser::primary() {
  char c = peek();
  if (c == '(') return tuple();
  if (std::isdigit(static_cast<unsigned char>(c))) {
    int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, text_[pos_] - '0', &value)) {
        return fail("integer too large");
      }
      ++pos_;
    }
    return LayoutTree{IntExpr::constant(value), {}};
  }
  if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    return LayoutTree{IntExpr::symbol(std::string(text_.substr(start, pos_ - start))), {}};
  }
  return fail("expected an integer, a symbol or '('");
}

Result<LayoutTree> Parser::tuple() {
  ++pos_;  // '('
  std::vector<LayoutTree> items;
  while (true) {
    TG_ASSIGN_OR_RETURN(LayoutTree item, sum());
    items.push_back(std::move(item));
    char c = peek();
    if (c == ')') break;
    if (c != ',') return fail("expected ',' or ')'");
    ++pos_;
  }
  ++pos_;  // ')'
  if (items.size() == 1) return std::move(items[0]);
  return LayoutTree{IntExpr(), std::move(items)};
}

Status Parser::run() {
  if (peek() == '\0') return fail("empty layout");
  TG_ASSIGN_OR_RETURN(shape, sum());
  if (peek() != ':') return fail("expected ':' between shape and stride");
  ++pos_;
  TG_ASSIGN_OR_RETURN(stride, sum());
  if (peek() != '\0') return fail("unexpected text after the stride");
  return Status::ok();
}

// Shape and stride must have the same tree structure ("congruent" in CuTe's words).
static Status check_congruent(const LayoutTree& shape, const LayoutTree& stride,
                              const std::string& where, std::string_view text) {
  if (shape.children.size() == stride.children.size()) {
    for (size_t i = 0; i < shape.children.size(); ++i) {
      TG_RETURN_IF_ERROR(check_congruent(shape.children[i], stride.children[i],
                                         where + "[" + std::to_string(i) + "]", text));
    }
    return Status::ok();
  }
  auto describe = [](const LayoutTree& t) {
    return t.is_leaf() ? std::string("a single value")
                       : "a tuple of " + std::to_string(t.children.size());
  };
  return error(ErrorCode::Parse, "layout \"" + std::string(text) + "\": shape" + where + " is " +
                                     describe(shape) + " but stride" + where + " is " +
                                     describe(stride));
}

}  // namespace

Result<Layout> Layout::parse(std::string_view text) {
  Parser parser(text);
  TG_RETURN_IF_ERROR(parser.run());
  TG_RETURN_IF_ERROR(check_congruent(parser.shape, parser.stride, "", text));
  return Layout(std::move(parser.shape), std::move(parser.stride));
}

}  // namespace tegula
