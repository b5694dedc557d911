#include "ir/IR.h"
#include "ir/BitOps.h"
#include "ir/IntFold.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>

namespace tegula::ir {

// ---------------------------------------------------------------------------------------
// Tables from the op list.

static const OpInfo kOpInfos[] = {
#define TG_OP_INFO(e, kw, fmt, roles, level, attrs, blocks) {OpKind::e, kw, fmt, roles, OpLevel::level, attrs, blocks},
    TG_FOR_EACH_OP(TG_OP_INFO)
#undef TG_OP_INFO
};

const OpInfo& op_info(OpKind kind) { return kOpInfos[static_cast<int>(kind)]; }

// The roles column, parsed at compile time. A malformed line reaches op_list_error, which is
// not constexpr, so the table below does not compile: the build names the bad op.
namespace {

void op_list_error(const char* /*why*/) {}

constexpr std::string_view next_word(std::string_view& rest) {
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  size_t end = rest.find(' ');
  std::string_view word = rest.substr(0, end);
  rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
  return word;
}

constexpr size_t count_operands(std::string_view format) {
  size_t n = 0;
  for (size_t i = 0; i + 5 <= format.size(); ++i)
    if (format.substr(i, 5) == "%tile" || format.substr(i, 5) == "%elem") ++n;
  return n;
}

constexpr bool has_bool_attr(std::string_view spec, std::string_view name) {
  for (std::string_view item = next_word(spec); !item.empty(); item = next_word(spec))
    if (item.substr(0, item.find(':')) == name && item.substr(name.size()).starts_with(":bool")) return true;
  return false;
}

constexpr OperandRole parse_role(std::string_view word, std::string_view attrs) {
  OperandRole r;
  if (word == "in") return r;
  if (word == "out" || word == "inout") {
    r.access = word == "out" ? Access::Write : Access::ReadWrite;
    return r;
  }
  if (!word.starts_with("inout?")) op_list_error("a role is in, out, inout, inout?ATTR or inout?!ATTR");
  r.access = Access::Write;
  r.read_if = word.substr(6);
  if (r.read_if.starts_with("!")) {
    r.read_if_value = false;
    r.read_if.remove_prefix(1);
  }
  if (!has_bool_attr(attrs, r.read_if)) op_list_error("a role's condition names a bool attribute of the op");
  return r;
}

constexpr OpRoles parse_roles(std::string_view roles, std::string_view format, std::string_view attrs) {
  OpRoles out;
  for (std::string_view word = next_word(roles); !word.empty(); word = next_word(roles)) {
    if (out.count == std::size(out.operand)) op_list_error("an op has at most three tile operands");
    out.operand[out.count++] = parse_role(word, attrs);
  }
  if (out.count != count_operands(format)) op_list_error("one role per %tile and %elem operand of the format");
  return out;
}

constexpr OpRoles kOpRoles[] = {
#define TG_OP_ROLES(e, kw, fmt, roles, level, attrs, blocks) parse_roles(roles, fmt, attrs),
    TG_FOR_EACH_OP(TG_OP_ROLES)
#undef TG_OP_ROLES
};

}  // namespace

const OpRoles& op_roles(OpKind kind) { return kOpRoles[static_cast<int>(kind)]; }

Access operand_access(const Stmt& s, size_t i) {
  const OperandRole& r = op_roles(s.op).operand[i];
  if (!r.read_if.empty() && stmt_attr_bool(s, r.read_if) == r.read_if_value) return Access::ReadWrite;
  return r.access;
}

const char* level_name(OpLevel level) {
  switch (level) {
    case OpLevel::Block: return "block";
    case OpLevel::Element: return "element";
    case OpLevel::Control: return "control";
  }
  return "?";
}

std::optional<OpKind> op_from_keyword(std::string_view keyword) {
  for (const OpInfo& info : kOpInfos)
    if (keyword == info.keyword) return info.kind;
  return std::nullopt;
}

const char* unary_spelling(UnaryOp op) {
  switch (op) {
#define TG_UNARY_CASE(e, s) \
  case UnaryOp::e: return s;
    TG_FOR_EACH_UNARY(TG_UNARY_CASE)
#undef TG_UNARY_CASE
  }
  return "?";
}

const char* binary_spelling(BinaryOp op) {
  switch (op) {
#define TG_BINARY_CASE(e, s, p) \
  case BinaryOp::e: return s;
    TG_FOR_EACH_BINARY(TG_BINARY_CASE)
#undef TG_BINARY_CASE
  }
  return "?";
}

int binary_precedence(BinaryOp op) {
  switch (op) {
#define TG_BINARY_PREC(e, s, p) \
  case BinaryOp::e: return p;
    TG_FOR_EACH_BINARY(TG_BINARY_PREC)
#undef TG_BINARY_PREC
  }
  return 0;
}

std::optional<UnaryOp> unary_from_call(std::string_view name) {
#define TG_UNARY_CALL(e, s) \
  if (!unary_is_prefix(UnaryOp::e) && name == s) return UnaryOp::e;
  TG_FOR_EACH_UNARY(TG_UNARY_CALL)
#undef TG_UNARY_CALL
  return std::nullopt;
}

std::optional<BinaryOp> binary_from_call(std::string_view name) {
#define TG_BINARY_CALL(e, s, p) \
  if (p == 0 && name == s) return BinaryOp::e;
  TG_FOR_EACH_BINARY(TG_BINARY_CALL)
#undef TG_BINARY_CALL
  return std::nullopt;
}

const char* scope_name(Scope s) {
  switch (s) {
#define TG_SCOPE_CASE(e, n) \
  case Scope::e: return n;
    TG_FOR_EACH_SCOPE(TG_SCOPE_CASE)
#undef TG_SCOPE_CASE
  }
  return "?";
}

std::optional<Scope> parse_scope(std::string_view s) {
#define TG_SCOPE_PARSE(e, n) \
  if (s == n) return Scope::e;
  TG_FOR_EACH_SCOPE(TG_SCOPE_PARSE)
#undef TG_SCOPE_PARSE
  return std::nullopt;
}

const char* reduce_name(ReduceKind k) {
  switch (k) {
#define TG_REDUCE_CASE(e, n) \
  case ReduceKind::e: return n;
    TG_FOR_EACH_REDUCE(TG_REDUCE_CASE)
#undef TG_REDUCE_CASE
  }
  return "?";
}

std::optional<ReduceKind> parse_reduce(std::string_view s) {
#define TG_REDUCE_PARSE(e, n) \
  if (s == n) return ReduceKind::e;
  TG_FOR_EACH_REDUCE(TG_REDUCE_PARSE)
#undef TG_REDUCE_PARSE
  return std::nullopt;
}

bool is_comparison(BinaryOp op) {
  return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le ||
         op == BinaryOp::Gt || op == BinaryOp::Ge;
}

bool is_logical(BinaryOp op) { return op == BinaryOp::And || op == BinaryOp::Or; }

bool is_bitwise(BinaryOp op) {
  return op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor || op == BinaryOp::Shl ||
         op == BinaryOp::Shr || op == BinaryOp::ShrLogical;
}

bool unary_is_prefix(UnaryOp op) {
  char c = unary_spelling(op)[0];
  return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

// ---------------------------------------------------------------------------------------
// Expression constructors.

static Expr make(ExprKind kind, SourceLoc loc) {
  auto e = std::make_shared<ExprNode>();
  e->kind = kind;
  e->loc = std::move(loc);
  return e;
}

Expr int_imm(int64_t v, SourceLoc loc) {
  Expr e = make(ExprKind::IntImm, std::move(loc));
  e->int_value = v;
  e->type = Type::index();
  return e;
}

Expr float_imm(double v, SourceLoc loc) {
  Expr e = make(ExprKind::FloatImm, std::move(loc));
  e->float_value = v;
  return e;
}

Expr var(std::string name, SourceLoc loc) {
  Expr e = make(ExprKind::Var, std::move(loc));
  e->name = std::move(name);
  return e;
}

Expr load(std::string buffer, std::vector<Expr> indices, SourceLoc loc) {
  Expr e = make(ExprKind::Load, std::move(loc));
  e->name = std::move(buffer);
  e->args = std::move(indices);
  return e;
}

Expr tile_use(std::string buffer, SourceLoc loc) {
  Expr e = make(ExprKind::Tile, std::move(loc));
  e->name = std::move(buffer);
  return e;
}

Expr elem_index(int64_t axis, SourceLoc loc) {
  Expr e = make(ExprKind::ElemIndex, std::move(loc));
  e->int_value = axis;
  return e;
}

Expr unary(UnaryOp op, Expr x, SourceLoc loc) {
  Expr e = make(ExprKind::Unary, std::move(loc));
  e->unary = op;
  e->args = {std::move(x)};
  return e;
}

Expr binary(BinaryOp op, Expr a, Expr b, SourceLoc loc) {
  Expr e = make(ExprKind::Binary, std::move(loc));
  e->binary = op;
  e->args = {std::move(a), std::move(b)};
  return e;
}

Expr cast(DType to, Expr x, SourceLoc loc) {
  Expr e = make(ExprKind::Cast, std::move(loc));
  e->cast_to = to;
  e->args = {std::move(x)};
  return e;
}

Expr bitcast(DType to, Expr x, SourceLoc loc) {
  Expr e = make(ExprKind::Bitcast, std::move(loc));
  e->cast_to = to;
  e->args = {std::move(x)};
  return e;
}

Expr select(Expr c, Expr a, Expr b, SourceLoc loc) {
  Expr e = make(ExprKind::Select, std::move(loc));
  e->args = {std::move(c), std::move(a), std::move(b)};
  return e;
}

// Every integer operation below is checked: a fold whose exact result does not fit in 64
// bits is "not a constant" here (so nothing is computed from a wrapped value), and the
// verifier reports it with the expression's location (int_fold_overflows).
std::optional<int64_t> fold_int_binary(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
    case BinaryOp::Add: return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional<int64_t>(r);
    case BinaryOp::Sub: return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional<int64_t>(r);
    case BinaryOp::Mul: return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional<int64_t>(r);
    case BinaryOp::Div:
    case BinaryOp::Mod:
    case BinaryOp::CeilDiv: {
      // INT64_MIN / -1 is the one quotient that does not fit (and traps on x86).
      if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
      int64_t q = a / b;
      int64_t rem = a % b;
      bool inexact = rem != 0;
      bool negative = (a < 0) != (b < 0);
      if (op == BinaryOp::Div) return q - (inexact && negative ? 1 : 0);
      if (op == BinaryOp::Mod) return inexact && negative ? rem + b : rem;
      return q + (inexact && !negative ? 1 : 0);
    }
    case BinaryOp::Max: return std::max(a, b);
    case BinaryOp::Min: return std::min(a, b);
    // Words never overflow: the operands are taken modulo 2^32 (ir/BitOps.h).
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
    case BinaryOp::Shl:
    case BinaryOp::Shr:
    case BinaryOp::ShrLogical: return bit_binary(op, word_of(a), word_of(b));
    // Comparisons and logic are not integer arithmetic.
    case BinaryOp::Or:
    case BinaryOp::And:
    case BinaryOp::Eq:
    case BinaryOp::Ne:
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<int64_t> fold_int_neg(int64_t a) {
  if (a == INT64_MIN) return std::nullopt;
  return -a;
}

std::optional<int64_t> const_int(const Expr& e) {
  if (!e) return std::nullopt;
  if (e->kind == ExprKind::IntImm) return e->int_value;
  if (e->kind == ExprKind::Unary && e->unary == UnaryOp::Neg) {
    auto x = const_int(e->args[0]);
    if (x) return fold_int_neg(*x);
    return std::nullopt;
  }
  if (e->kind == ExprKind::Unary && e->unary == UnaryOp::BitNot) {
    auto x = const_int(e->args[0]);
    if (x) return bit_not(word_of(*x));
    return std::nullopt;
  }
  if (e->kind != ExprKind::Binary) return std::nullopt;
  auto a = const_int(e->args[0]);
  auto b = const_int(e->args[1]);
  if (!a || !b) return std::nullopt;
  return fold_int_binary(e->binary, *a, *b);
}

bool int_fold_overflows(const Expr& e) {
  if (!e) return false;
  if (e->kind == ExprKind::Unary && e->unary == UnaryOp::Neg) {
    auto x = const_int(e->args[0]);
    return x && !fold_int_neg(*x);
  }
  if (e->kind != ExprKind::Binary || is_comparison(e->binary) || is_logical(e->binary)) return false;
  auto a = const_int(e->args[0]);
  auto b = const_int(e->args[1]);
  if (!a || !b) return false;
  bool divides = e->binary == BinaryOp::Div || e->binary == BinaryOp::Mod || e->binary == BinaryOp::CeilDiv;
  if (divides && *b == 0) return false;  // division by zero has its own message
  return !fold_int_binary(e->binary, *a, *b);
}

int expr_height(const Expr& e, int cap) {
  if (!e) return 0;
  if (cap <= 0) return 1;
  int below = 0;
  for (const Expr& a : e->args) below = std::max(below, expr_height(a, cap - 1));
  return below + 1;
}

bool same_expr(const Expr& a, const Expr& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->kind != b->kind || a->args.size() != b->args.size()) return false;
  switch (a->kind) {
    case ExprKind::IntImm:
    case ExprKind::ElemIndex:
      if (a->int_value != b->int_value) return false;
      break;
    case ExprKind::FloatImm:
      if (!(a->float_value == b->float_value ||
            (std::isnan(a->float_value) && std::isnan(b->float_value))))
        return false;
      if (std::signbit(a->float_value) != std::signbit(b->float_value)) return false;
      break;
    case ExprKind::Var:
    case ExprKind::Load:
    case ExprKind::Tile:
      if (a->name != b->name) return false;
      break;
    case ExprKind::Unary:
      if (a->unary != b->unary) return false;
      break;
    case ExprKind::Binary:
      if (a->binary != b->binary) return false;
      break;
    case ExprKind::Cast:
    case ExprKind::Bitcast:
      if (a->cast_to != b->cast_to) return false;
      break;
    case ExprKind::Select: break;
  }
  for (size_t i = 0; i < a->args.size(); ++i)
    if (!same_expr(a->args[i], b->args[i])) return false;
  return true;
}

// ---------------------------------------------------------------------------------------
// Attributes.

AttrValue AttrValue::of_bool(bool v) {
  AttrValue a;
  a.kind = Kind::Bool;
  a.b = v;
  return a;
}
AttrValue AttrValue::of_int(int64_t v) {
  AttrValue a;
  a.kind = Kind::Int;
  a.i = v;
  return a;
}
AttrValue AttrValue::of_float(double v) {
  AttrValue a;
  a.kind = Kind::Float;
  a.f = v;
  return a;
}
AttrValue AttrValue::of_ident(std::string v) {
  AttrValue a;
  a.kind = Kind::Ident;
  a.s = std::move(v);
  return a;
}
AttrValue AttrValue::of_string(std::string v) {
  AttrValue a;
  a.kind = Kind::String;
  a.s = std::move(v);
  return a;
}
AttrValue AttrValue::of_list(std::vector<AttrValue> v) {
  AttrValue a;
  a.kind = Kind::List;
  a.list = std::move(v);
  return a;
}
AttrValue AttrValue::of_ints(const std::vector<int64_t>& v) {
  std::vector<AttrValue> items;
  for (int64_t x : v) items.push_back(of_int(x));
  return of_list(std::move(items));
}

bool AttrValue::operator==(const AttrValue& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::Bool: return b == o.b;
    case Kind::Int: return i == o.i;
    case Kind::Float: return f == o.f || (std::isnan(f) && std::isnan(o.f));
    case Kind::Ident:
    case Kind::String: return s == o.s;
    case Kind::List: return list == o.list;
  }
  return false;
}

const Attr* find_attr(const std::vector<Attr>& attrs, std::string_view name) {
  for (const Attr& a : attrs)
    if (a.name == name) return &a;
  return nullptr;
}

void set_attr(std::vector<Attr>& attrs, std::string name, AttrValue value) {
  for (Attr& a : attrs) {
    if (a.name != name) continue;
    a.value = std::move(value);
    return;
  }
  attrs.push_back(Attr{std::move(name), std::move(value), {}});
}

/// The default value written in an op's attribute spec ("name:type=default").
static std::optional<AttrValue> spec_default(const char* spec, std::string_view name) {
  std::string_view rest(spec);
  while (!rest.empty()) {
    size_t end = rest.find(' ');
    std::string_view item = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    size_t colon = item.find(':');
    if (item.substr(0, colon) != name) continue;
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    std::string_view type = item.substr(colon + 1, eq - colon - 1);
    std::string value(item.substr(eq + 1));
    if (type == "bool") return AttrValue::of_bool(value == "true");
    if (type == "int") return AttrValue::of_int(std::strtoll(value.c_str(), nullptr, 10));
    if (type == "float") return AttrValue::of_float(std::strtod(value.c_str(), nullptr));
    if (type == "ints") return AttrValue::of_list({});
    return AttrValue::of_ident(value);
  }
  return std::nullopt;
}

std::optional<AttrValue> stmt_attr(const Stmt& s, std::string_view name) {
  if (const Attr* a = find_attr(s.attrs, name)) return a->value;
  return spec_default(op_info(s.op).attrs, name);
}

bool stmt_attr_bool(const Stmt& s, std::string_view name) {
  auto v = stmt_attr(s, name);
  return v && v->kind == AttrValue::Kind::Bool && v->b;
}

int64_t stmt_attr_int(const Stmt& s, std::string_view name) {
  auto v = stmt_attr(s, name);
  return v && v->kind == AttrValue::Kind::Int ? v->i : 0;
}

double stmt_attr_float(const Stmt& s, std::string_view name) {
  auto v = stmt_attr(s, name);
  if (!v) return 0;
  if (v->kind == AttrValue::Kind::Float) return v->f;
  if (v->kind == AttrValue::Kind::Int) return double(v->i);
  return 0;
}

std::string stmt_attr_ident(const Stmt& s, std::string_view name) {
  auto v = stmt_attr(s, name);
  return v && (v->kind == AttrValue::Kind::Ident || v->kind == AttrValue::Kind::String) ? v->s
                                                                                          : "";
}

std::vector<int64_t> stmt_attr_ints(const Stmt& s, std::string_view name) {
  std::vector<int64_t> out;
  auto v = stmt_attr(s, name);
  if (!v || v->kind != AttrValue::Kind::List) return out;
  for (const AttrValue& x : v->list)
    if (x.kind == AttrValue::Kind::Int) out.push_back(x.i);
  return out;
}

// ---------------------------------------------------------------------------------------
// Buffers and kernels.

int64_t BufferType::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

const Param* Kernel::find_param(std::string_view name) const {
  for (const Param& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> Kernel::symbols() const {
  std::vector<std::string> out;
  for (const Param& p : params) {
    for (const Expr& d : p.shape) {
      if (d->kind != ExprKind::Var) continue;
      bool seen = false;
      for (const std::string& s : out) seen = seen || s == d->name;
      if (!seen) out.push_back(d->name);
    }
  }
  return out;
}

}  // namespace tegula::ir
