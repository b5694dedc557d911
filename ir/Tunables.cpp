#include "ir/Tunables.h"

#include <algorithm>
#include <cctype>
#include <climits>

#include "ir/IntFold.h"
#include "ir/Printer.h"

namespace tegula::ir {
namespace {

std::optional<int64_t> compare_or_logic(BinaryOp op, int64_t a, int64_t b) {
  switch (op) {
    case BinaryOp::Eq: return a == b;
    case BinaryOp::Ne: return a != b;
    case BinaryOp::Lt: return a < b;
    case BinaryOp::Le: return a <= b;
    case BinaryOp::Gt: return a > b;
    case BinaryOp::Ge: return a >= b;
    case BinaryOp::And: return a != 0 && b != 0;
    case BinaryOp::Or: return a != 0 || b != 0;
    default: return fold_int_binary(op, a, b);
  }
}

}  // namespace

std::optional<int64_t> eval_condition(const Expr& e, const Binding& b) {
  if (!e) return std::nullopt;
  switch (e->kind) {
    case ExprKind::IntImm: return e->int_value;
    case ExprKind::Var:
      for (const auto& [name, value] : b)
        if (name == e->name) return value;
      return std::nullopt;
    case ExprKind::Unary: {
      auto x = eval_condition(e->args[0], b);
      if (!x) return std::nullopt;
      if (e->unary == UnaryOp::Neg) return fold_int_neg(*x);
      if (e->unary == UnaryOp::Not) return int64_t(*x == 0);
      return std::nullopt;
    }
    case ExprKind::Binary: {
      auto x = eval_condition(e->args[0], b);
      auto y = eval_condition(e->args[1], b);
      if (!x || !y) return std::nullopt;
      return compare_or_logic(e->binary, *x, *y);
    }
    default: return std::nullopt;
  }
}

int64_t TuneSpace::size() const {
  int64_t n = 1;
  for (const Tunable& t : tunables) {
    if (n > INT64_MAX / int64_t(t.values.size())) return INT64_MAX;
    n *= int64_t(t.values.size());
  }
  return n;
}

bool satisfies(const TuneSpace& space, const Binding& b, std::string* why) {
  for (const Expr& c : space.conditions) {
    std::optional<int64_t> v = eval_condition(c, b);
    if (v && *v != 0) continue;
    if (why) *why = std::string(v ? "breaks" : "cannot evaluate") + " where(" + print_expr(c) + ") at " + c->loc.str();
    return false;
  }
  return true;
}

Result<std::vector<Binding>> enumerate_bindings(const TuneSpace& space, std::vector<RejectedBinding>* rejected,
                                                int64_t limit) {
  if (space.size() > limit)
    return error(ErrorCode::InvalidArgument, "the tune space has " + std::to_string(space.size()) +
                                                 " bindings, more than the " + std::to_string(limit) +
                                                 " the scheduler enumerates; narrow the candidate lists");
  std::vector<Binding> out;
  if (space.empty()) return out;
  std::vector<size_t> at(space.tunables.size(), 0);
  for (;;) {
    Binding b;
    for (size_t i = 0; i < at.size(); ++i) b.emplace_back(space.tunables[i].name, space.tunables[i].values[at[i]]);
    std::string why;
    if (satisfies(space, b, &why)) out.push_back(std::move(b));
    else if (rejected) rejected->push_back({std::move(b), why});
    size_t i = at.size();
    while (i > 0) {
      --i;
      if (++at[i] < space.tunables[i].values.size()) break;
      at[i] = 0;
      if (i == 0) return out;
    }
  }
}

std::string binding_text(const Binding& b) {
  std::string s;
  for (const auto& [name, value] : b) s += (s.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return s;
}

Status check_binding(const TuneSpace& space, const Binding& b) {
  for (const auto& [name, value] : b) {
    auto t = std::find_if(space.tunables.begin(), space.tunables.end(), [&](const Tunable& x) { return x.name == name; });
    if (t == space.tunables.end())
      return error(ErrorCode::InvalidArgument, "'" + name + "' is not a tunable of this kernel");
    if (std::find(t->values.begin(), t->values.end(), value) == t->values.end()) {
      std::string list;
      for (int64_t v : t->values) list += (list.empty() ? "" : ", ") + std::to_string(v);
      return error(ErrorCode::InvalidArgument, "tunable " + name + " = " + std::to_string(value) +
                                                   " is not one of its candidates [" + list + "]", t->loc);
    }
  }
  for (size_t i = 0; i < space.tunables.size(); ++i) {
    if (i < b.size() && b[i].first == space.tunables[i].name) continue;
    bool present = std::any_of(b.begin(), b.end(), [&](const auto& x) { return x.first == space.tunables[i].name; });
    return error(ErrorCode::InvalidArgument, present ? "tunable " + space.tunables[i].name + " is bound out of order or twice"
                                                     : "tunable " + space.tunables[i].name + " has no value",
                 space.tunables[i].loc);
  }
  if (b.size() != space.tunables.size()) return error(ErrorCode::InvalidArgument, "a tunable is bound twice");
  return Status::ok();
}

Result<Binding> parse_binding(std::string_view text, const TuneSpace& space) {
  Binding given;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ',' || text[i] == ' ')) ++i;
    if (i >= text.size()) break;
    size_t end = text.find_first_of(", ", i);
    std::string item(text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
    i = end == std::string_view::npos ? text.size() : end;
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      return error(ErrorCode::InvalidArgument, "expected NAME=INTEGER in the tunable binding, found '" + item + "'");
    std::string name = item.substr(0, eq), digits = item.substr(eq + 1);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
        digits.size() > 18)
      return error(ErrorCode::InvalidArgument, "tunable " + name + ": '" + digits + "' is not a positive integer");
    given.emplace_back(name, std::stoll(digits));
  }
  // Declaration order, whatever order the text used; check_binding reports the rest.
  Binding ordered;
  for (const Tunable& t : space.tunables)
    for (const auto& g : given)
      if (g.first == t.name) ordered.push_back(g);
  for (const auto& g : given)
    if (std::none_of(space.tunables.begin(), space.tunables.end(), [&](const Tunable& t) { return t.name == g.first; }))
      return error(ErrorCode::InvalidArgument, "'" + g.first + "' is not a tunable of this kernel");
  TG_RETURN_IF_ERROR(check_binding(space, ordered));
  return ordered;
}

}  // namespace tegula::ir
