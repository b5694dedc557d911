/// \file
/// Evaluation and printing of IntExpr. Parsing lives with the layout parser, because a
/// parenthesis in layout text may open either a tuple or a sub-expression.
#include "targets/IntExpr.h"

#include <cstdint>

namespace tegula {

IntExpr IntExpr::constant(int64_t value) {
  IntExpr e;
  e.value_ = value;
  return e;
}

IntExpr IntExpr::symbol(std::string name) {
  IntExpr e;
  e.op_ = Op::Symbol;
  e.name_ = std::move(name);
  return e;
}

IntExpr IntExpr::binary(Op op, IntExpr lhs, IntExpr rhs) {
  IntExpr e;
  e.op_ = op;
  e.args_.push_back(std::move(lhs));
  e.args_.push_back(std::move(rhs));
  return e;
}

static Status eval_error(const IntExpr& e, const std::string& why) {
  return error(ErrorCode::InvalidArgument, "'" + e.to_string() + "' " + why);
}

static Result<int64_t> apply(const IntExpr& e, int64_t a, int64_t b) {
  int64_t out = 0;
  switch (e.op()) {
    case IntExpr::Op::Add:
      if (__builtin_add_overflow(a, b, &out)) return eval_error(e, "overflows");
      return out;
    case IntExpr::Op::Sub:
      if (__builtin_sub_overflow(a, b, &out)) return eval_error(e, "overflows");
      return out;
    case IntExpr::Op::Mul:
      if (__builtin_mul_overflow(a, b, &out)) return eval_error(e, "overflows");
      return out;
    case IntExpr::Op::Div:
      if (b == 0) return eval_error(e, "divides by zero");
      if (a % b != 0) {
        return eval_error(e, "is not an exact division (" + std::to_string(a) + "/" +
                                 std::to_string(b) + ")");
      }
      return a / b;
    case IntExpr::Op::Mod:
      if (b == 0) return eval_error(e, "takes a remainder by zero");
      return a % b;
    case IntExpr::Op::Const:
    case IntExpr::Op::Symbol:
      break;
  }
  return error(ErrorCode::Internal, "apply() called on a leaf expression");
}

Result<int64_t> IntExpr::eval(const Symbols& symbols) const {
  if (op_ == Op::Const) return value_;
  if (op_ == Op::Symbol) {
    auto it = symbols.find(name_);
    if (it == symbols.end()) return error(ErrorCode::InvalidArgument, "unbound symbol '" + name_ + "'");
    return it->second;
  }
  TG_ASSIGN_OR_RETURN(int64_t a, args_[0].eval(symbols));
  TG_ASSIGN_OR_RETURN(int64_t b, args_[1].eval(symbols));
  return apply(*this, a, b);
}

static int precedence(IntExpr::Op op) {
  switch (op) {
    case IntExpr::Op::Add:
    case IntExpr::Op::Sub: return 1;
    case IntExpr::Op::Mul:
    case IntExpr::Op::Div:
    case IntExpr::Op::Mod: return 2;
    case IntExpr::Op::Const:
    case IntExpr::Op::Symbol: return 3;
  }
  return 3;
}

static char op_char(IntExpr::Op op) {
  switch (op) {
    case IntExpr::Op::Add: return '+';
    case IntExpr::Op::Sub: return '-';
    case IntExpr::Op::Mul: return '*';
    case IntExpr::Op::Div: return '/';
    case IntExpr::Op::Mod: return '%';
    case IntExpr::Op::Const:
    case IntExpr::Op::Symbol: break;
  }
  return '?';
}

// The parser builds left-associative trees, so a right operand of equal precedence needs
// parentheses (a-(b-c)) while a left one does not ((a-b)-c prints as a-b-c).
static std::string operand(const IntExpr& child, int parent_prec, bool right) {
  std::string text = child.to_string();
  int prec = precedence(child.op());
  bool wrap = right ? prec <= parent_prec : prec < parent_prec;
  return wrap ? "(" + text + ")" : text;
}

std::string IntExpr::to_string() const {
  if (op_ == Op::Const) return std::to_string(value_);
  if (op_ == Op::Symbol) return name_;
  int prec = precedence(op_);
  return operand(args_[0], prec, false) + op_char(op_) + operand(args_[1], prec, true);
}

void IntExpr::collect_symbols(std::vector<std::string>& out) const {
  if (op_ == Op::Symbol) out.push_back(name_);
  for (const IntExpr& a : args_) a.collect_symbols(out);
}

}  // namespace tegula
