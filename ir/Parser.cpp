#include "ir/Parser.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>

#include "ir/IntFold.h"
#include "ir/Lexer.h"
#include "ir/Tunables.h"
#include "ir/Verifier.h"

namespace tegula::ir {
namespace {

// Deep enough for any real kernel, shallow enough that recursion cannot exhaust the stack.
constexpr int kMaxDepth = 200;

/// One piece of an op's operand format: a %directive or a literal.
struct FormatPiece {
  bool directive = false;
  std::string text;  // directive name without '%', or the literal
};

std::vector<FormatPiece> split_format(const char* format) {
  std::vector<FormatPiece> out;
  std::string_view f(format);
  size_t i = 0;
  while (i < f.size()) {
    if (f[i] == ' ') {
      ++i;
      continue;
    }
    FormatPiece p;
    if (f[i] == '%') {
      p.directive = true;
      ++i;
      while (i < f.size() && f[i] >= 'a' && f[i] <= 'z') p.text.push_back(f[i++]);
    } else if (f[i] >= 'a' && f[i] <= 'z') {
      while (i < f.size() && f[i] >= 'a' && f[i] <= 'z') p.text.push_back(f[i++]);
    } else if (f[i] == '.') {
      p.text = "..";
      i += 2;
    } else {
      p.text = std::string(1, f[i++]);
    }
    out.push_back(p);
  }
  return out;
}

class Parser {
public:
  Parser(std::vector<Token> tokens, std::string file, const Binding* binding = nullptr)
      : toks_(std::move(tokens)), file_(std::move(file)), binding_(binding) {}

  /// The kernel's tune space: the header up to and including `where(...)`.
  Result<TuneSpace> parse_space() {
    space_only_ = true;
    TG_RETURN_IF_ERROR(expect_keyword("kernel"));
    TG_RETURN_IF_ERROR(expect_ident("a kernel name").status());
    Kernel k;
    TG_RETURN_IF_ERROR(parse_params(k));
    TG_RETURN_IF_ERROR(parse_tune_clauses(k));
    return std::move(space_);
  }

  Result<Kernel> parse() {
    Kernel k;
    k.loc = loc();
    TG_RETURN_IF_ERROR(expect_keyword("kernel"));
    TG_ASSIGN_OR_RETURN(k.name, expect_ident("a kernel name"));
    TG_RETURN_IF_ERROR(parse_params(k));
    TG_RETURN_IF_ERROR(parse_tune_clauses(k));
    if (binding_ && !binding_->empty() && space_.empty())
      return error(ErrorCode::InvalidArgument, "kernel " + k.name + " has no tunables, but values were given for " +
                                                   binding_text(*binding_), k.loc);
    TG_RETURN_IF_ERROR(expect_keyword("grid"));
    TG_RETURN_IF_ERROR(expect(Tok::LParen));
    for (;;) {
      TG_ASSIGN_OR_RETURN(Expr e, parse_expr());
      k.grid.push_back(std::move(e));
      if (!accept(Tok::Comma)) break;
    }
    TG_RETURN_IF_ERROR(expect(Tok::RParen));
    TG_RETURN_IF_ERROR(expect_keyword("threads"));
    TG_RETURN_IF_ERROR(expect(Tok::LParen));
    TG_ASSIGN_OR_RETURN(k.threads, parse_constant("expected the thread count (an integer)", false));
    TG_RETURN_IF_ERROR(expect(Tok::RParen));
    TG_RETURN_IF_ERROR(parse_attrs(k.attrs, &k.loc));
    TG_ASSIGN_OR_RETURN(k.body, parse_block());
    if (!at(Tok::End)) return fail("expected end of input after the kernel");
    return k;
  }

private:
  Status parse_params(Kernel& k) {
    TG_RETURN_IF_ERROR(expect(Tok::LParen));
    if (!at(Tok::RParen)) {
      for (;;) {
        TG_ASSIGN_OR_RETURN(Param p, parse_param());
        k.params.push_back(std::move(p));
        if (!accept(Tok::Comma)) break;
      }
    }
    TG_RETURN_IF_ERROR(expect(Tok::RParen));
    for (const Param& p : k.params)
      if (p.is_tensor) scopes_.front().insert(p.name);
    return Status::ok();
  }

  /// `tune(NAME in [v, ...], NAME in lo .. hi, ...)` then an optional `where(cond, ...)`
  /// (ir/Tunables.h). With a binding, every later use of a tunable's name reads as its value.
  Status parse_tune_clauses(const Kernel& k) {
    if (!at_ident("tune")) return Status::ok();
    SourceLoc clause = loc();
    next();
    TG_RETURN_IF_ERROR(expect(Tok::LParen));
    for (;;) {
      TG_RETURN_IF_ERROR(parse_tunable(k));
      if (!accept(Tok::Comma)) break;
    }
    TG_RETURN_IF_ERROR(expect(Tok::RParen));
    if (!binding_ && !parsing_space_only())
      return error(ErrorCode::InvalidArgument,
                   "kernel " + k.name + " has tunables (" + tunable_names() +
                       "): compile it through the runtime (which picks a candidate), or give values (tegula "
                       "--tune NAME=V,...; ir::parse_kernel's binding)",
                   clause);
    if (binding_) {
      TG_RETURN_IF_ERROR(check_binding(space_, *binding_));
      bind_tunable_tokens();
    }
    if (!at_ident("where")) return Status::ok();
    next();
    TG_RETURN_IF_ERROR(expect(Tok::LParen));
    for (;;) {
      TG_ASSIGN_OR_RETURN(Expr c, parse_expr());
      TG_RETURN_IF_ERROR(check_condition(c));
      if (binding_ && !eval_condition(c, {}).value_or(0))
        return error(ErrorCode::InvalidArgument, "tunables " + binding_text(*binding_) + " break this where condition",
                     c->loc);
      space_.conditions.push_back(std::move(c));
      if (!accept(Tok::Comma)) break;
    }
    return expect(Tok::RParen);
  }

  Status parse_tunable(const Kernel& k) {
    Tunable t;
    t.loc = loc();
    TG_ASSIGN_OR_RETURN(t.name, expect_ident("a tunable name"));
    for (const std::string& s : k.symbols())
      if (s == t.name) return error(ErrorCode::Verify, "tunable " + t.name + " is also a shape symbol", t.loc);
    if (k.find_param(t.name)) return error(ErrorCode::Verify, "tunable " + t.name + " is also a parameter", t.loc);
    for (const char* b : kBlockIndexNames)
      if (t.name == b) return error(ErrorCode::Verify, "tunable " + t.name + " would hide the block index", t.loc);
    for (const Tunable& o : space_.tunables)
      if (o.name == t.name) return error(ErrorCode::Verify, "tunable " + t.name + " is declared twice", t.loc);
    TG_RETURN_IF_ERROR(expect_keyword("in"));
    if (accept(Tok::LBracket)) {
      for (;;) {
        if (!at(Tok::Int)) return fail_expected("a candidate value (a positive integer)");
        t.values.push_back(cur().int_value);
        next();
        if (!accept(Tok::Comma)) break;
      }
      TG_RETURN_IF_ERROR(expect(Tok::RBracket));
    } else {
      if (!at(Tok::Int)) return fail_expected("'[' or the first value of a range lo .. hi");
      int64_t lo = cur().int_value;
      next();
      TG_RETURN_IF_ERROR(expect(Tok::DotDot));
      if (!at(Tok::Int)) return fail_expected("the end of the range (an integer, not included)");
      int64_t hi = cur().int_value;
      next();
      if (hi <= lo) return error(ErrorCode::Verify, "tunable " + t.name + ": the range is empty (lo .. hi excludes hi)", t.loc);
      if (hi - lo > 64) return error(ErrorCode::Verify, "tunable " + t.name + ": a range holds at most 64 values; list them", t.loc);
      for (int64_t v = lo; v < hi; ++v) t.values.push_back(v);
    }
    for (size_t i = 0; i < t.values.size(); ++i) {
      if (t.values[i] < 1) return error(ErrorCode::Verify, "tunable " + t.name + ": candidates are positive integers", t.loc);
      for (size_t j = 0; j < i; ++j)
        if (t.values[j] == t.values[i])
          return error(ErrorCode::Verify, "tunable " + t.name + ": candidate " + std::to_string(t.values[i]) + " is listed twice", t.loc);
    }
    space_.tunables.push_back(std::move(t));
    return Status::ok();
  }

  /// A where condition names tunables and integers only (evaluated before verification).
  Status check_condition(const Expr& e) const {
    if (e->kind == ExprKind::IntImm) return Status::ok();
    if (e->kind == ExprKind::Var) {
      for (const Tunable& t : space_.tunables)
        if (t.name == e->name) return Status::ok();
      return error(ErrorCode::Verify, "a where condition may name only tunables; '" + e->name + "' is not one", e->loc);
    }
    if (e->kind != ExprKind::Unary && e->kind != ExprKind::Binary)
      return error(ErrorCode::Verify, "a where condition is integer arithmetic, comparisons and logic over tunables", e->loc);
    for (const Expr& a : e->args) TG_RETURN_IF_ERROR(check_condition(a));
    return Status::ok();
  }

  void bind_tunable_tokens() {
    for (size_t i = pos_; i < toks_.size(); ++i) {
      Token& t = toks_[i];
      if (t.kind != Tok::Ident) continue;
      for (const auto& [name, value] : *binding_) {
        if (t.text != name) continue;
        t.kind = Tok::Int;
        t.int_value = value;
        t.text = std::to_string(value);
      }
    }
  }

  /// An integer constant: a literal, or integer arithmetic on literals (what tunables' uses
  /// become: `threads(T * 32)`, `alloc S: shared f32[BM * 2, BK]`). `message` is the error
  /// when it is not one (fail_expected("a constant dimension") when `dimension`).
  Result<int64_t> parse_constant(const char* message, bool dimension) {
    auto refuse = [&] { return dimension ? fail_expected("a constant dimension") : fail(message); };
    if (!at(Tok::Int) && !at(Tok::LParen) && !at(Tok::Minus)) return refuse();
    SourceLoc l = loc();
    TG_ASSIGN_OR_RETURN(Expr e, parse_expr());
    std::optional<int64_t> v = const_int(e);
    if (!v) return error(ErrorCode::Parse, dimension ? "expected a constant dimension (integer arithmetic on literals)"
                                                     : std::string(message) + " (integer arithmetic on literals)", l);
    return *v;
  }

  std::string tunable_names() const {
    std::string s;
    for (const Tunable& t : space_.tunables) s += (s.empty() ? "" : ", ") + t.name;
    return s;
  }

  bool parsing_space_only() const { return space_only_; }

  // --- token helpers -------------------------------------------------------------------
  const Token& cur() const { return toks_[pos_]; }
  const Token& peek_tok(size_t n = 1) const {
    return toks_[std::min(pos_ + n, toks_.size() - 1)];
  }
  bool at(Tok t) const { return cur().kind == t; }
  bool at_ident(std::string_view s) const { return at(Tok::Ident) && cur().text == s; }
  void next() {
    if (pos_ + 1 < toks_.size()) ++pos_;
  }
  bool accept(Tok t) {
    if (!at(t)) return false;
    next();
    return true;
  }
  SourceLoc loc() const { return SourceLoc{file_, cur().line, cur().column}; }

  std::string describe(const Token& t) const {
    switch (t.kind) {
      case Tok::Ident: return "'" + t.text + "'";
      case Tok::Int:
      case Tok::Float: return "number " + t.text;
      case Tok::String: return "string \"" + t.text + "\"";
      default: return token_name(t.kind);
    }
  }

  Status fail(std::string message) const {
    if (cur().kind == Tok::Error) return error(ErrorCode::Parse, cur().text, loc());
    return error(ErrorCode::Parse, std::move(message), loc());
  }
  Status fail_expected(const std::string& what) const {
    return fail("expected " + what + ", found " + describe(cur()));
  }

  Status expect(Tok t) {
    if (accept(t)) return Status::ok();
    return fail_expected(token_name(t));
  }
  Status expect_keyword(const char* kw) {
    if (at_ident(kw)) {
      next();
      return Status::ok();
    }
    return fail_expected(std::string("'") + kw + "'");
  }
  Result<std::string> expect_ident(const std::string& what) {
    if (!at(Tok::Ident)) return fail_expected(what);
    std::string s = cur().text;
    next();
    return s;
  }

  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) { ++p.depth_; }
    ~DepthGuard() { --p.depth_; }
  };
  Status check_depth() const {
    if (depth_ > kMaxDepth) return fail("nesting is too deep (more than 200 levels)");
    return Status::ok();
  }

  // --- kernel pieces -----------------------------------------------------------------
  Result<Param> parse_param() {
    Param p;
    p.loc = loc();
    TG_ASSIGN_OR_RETURN(p.name, expect_ident("a parameter name"));
    TG_RETURN_IF_ERROR(expect(Tok::Colon));
    TG_ASSIGN_OR_RETURN(p.dtype, parse_dtype_tok());
    if (!accept(Tok::LBracket)) return p;
    p.is_tensor = true;
    for (;;) {
      SourceLoc dl = loc();
      if (at(Tok::Int)) {
        p.shape.push_back(int_imm(cur().int_value, dl));
        next();
      } else if (at(Tok::Ident)) {
        p.shape.push_back(var(cur().text, dl));
        next();
      } else {
        return fail_expected("a dimension (an integer or a shape symbol)");
      }
      if (!accept(Tok::Comma)) break;
    }
    TG_RETURN_IF_ERROR(expect(Tok::RBracket));
    return p;
  }

  Result<DType> parse_dtype_tok() {
    if (!at(Tok::Ident)) return fail_expected("a dtype");
    auto d = parse_dtype(cur().text);
    if (!d) return fail("unknown dtype '" + cur().text + "'");
    next();
    return *d;
  }

  Result<Block> parse_block() {
    DepthGuard guard(*this);
    TG_RETURN_IF_ERROR(check_depth());
    TG_RETURN_IF_ERROR(expect(Tok::LBrace));
    scopes_.emplace_back();
    Block b;
    while (!at(Tok::RBrace)) {
      if (at(Tok::End)) return fail("expected '}' before end of input");
      TG_ASSIGN_OR_RETURN(Stmt s, parse_stmt());
      b.stmts.push_back(std::move(s));
    }
    next();
    scopes_.pop_back();
    return b;
  }

  // --- statements, driven by the op list ------------------------------------------------
  Result<Stmt> parse_stmt() {
    if (!at(Tok::Ident)) return fail_expected("a statement");
    auto op = op_from_keyword(cur().text);
    if (!op) return fail("unknown op '" + cur().text + "'");
    Stmt s;
    s.op = *op;
    s.loc = loc();
    next();
    const OpInfo& info = op_info(s.op);
    for (const FormatPiece& piece : split_format(info.format)) {
      if (!piece.directive) {
        TG_RETURN_IF_ERROR(expect_literal(piece.text));
        continue;
      }
      TG_RETURN_IF_ERROR(parse_operand(piece.text, s));
    }
    TG_RETURN_IF_ERROR(parse_attrs(s.attrs, &s.loc));
    if (s.op == OpKind::Alloc) scopes_.back().insert(s.name);
    for (int i = 0; i < info.blocks; ++i) {
      if (i > 0) {  // blocks after the first are introduced by 'else' and are optional
        if (!at_ident("else")) break;
        next();
      }
      TG_ASSIGN_OR_RETURN(Block b, parse_block());
      s.blocks.push_back(std::move(b));
    }
    return s;
  }

  Status expect_literal(const std::string& lit) {
    if (lit == ",") return expect(Tok::Comma);
    if (lit == ":") return expect(Tok::Colon);
    if (lit == "=") return expect(Tok::Assign);
    if (lit == "..") return expect(Tok::DotDot);
    return expect_keyword(lit.c_str());
  }

  Status parse_operand(const std::string& d, Stmt& s) {
    if (d == "name") {
      TG_ASSIGN_OR_RETURN(s.name, expect_ident("a buffer name"));
      return Status::ok();
    }
    if (d == "type") return parse_buffer_type(s.type);
    if (d == "tile" || d == "elem") {
      TG_ASSIGN_OR_RETURN(TileRef t, parse_tile(d == "elem"));
      s.tiles.push_back(std::move(t));
      return Status::ok();
    }
    if (d == "expr") {
      TG_ASSIGN_OR_RETURN(Expr e, parse_expr());
      s.exprs.push_back(std::move(e));
      return Status::ok();
    }
    if (d == "var") {
      TG_ASSIGN_OR_RETURN(std::string v, expect_ident("a loop variable"));
      s.vars.push_back(std::move(v));
      return Status::ok();
    }
    if (d == "vars") return parse_list<std::string>(s.vars, [&]() { return expect_ident("a loop variable"); });
    if (d == "exprs") {
      std::vector<Expr> es;
      TG_RETURN_IF_ERROR(parse_list<Expr>(es, [&]() { return parse_expr(); }));
      if (es.size() != s.vars.size())
        return error(ErrorCode::Parse,
                     "expected " + std::to_string(s.vars.size()) + " extents, one per loop variable, found " +
                         std::to_string(es.size()),
                     s.loc);
      for (Expr& e : es) s.exprs.push_back(std::move(e));
      return Status::ok();
    }
    return error(ErrorCode::Internal, "unknown format directive %" + d, s.loc);
  }

  /// `x` or `(x, y, ...)`.
  template <typename T, typename F>
  Status parse_list(std::vector<T>& out, F item) {
    if (!accept(Tok::LParen)) {
      TG_ASSIGN_OR_RETURN(T v, item());
      out.push_back(std::move(v));
      return Status::ok();
    }
    for (;;) {
      TG_ASSIGN_OR_RETURN(T v, item());
      out.push_back(std::move(v));
      if (!accept(Tok::Comma)) break;
    }
    return expect(Tok::RParen);
  }

  Status parse_buffer_type(BufferType& t) {
    if (!at(Tok::Ident)) return fail_expected("a scope (shared, fragment or local)");
    auto scope = parse_scope(cur().text);
    if (!scope) return fail("unknown scope '" + cur().text + "' (expected shared, fragment or local)");
    t.scope = *scope;
    next();
    TG_ASSIGN_OR_RETURN(t.dtype, parse_dtype_tok());
    TG_RETURN_IF_ERROR(expect(Tok::LBracket));
    for (;;) {
      TG_ASSIGN_OR_RETURN(int64_t dim, parse_constant("", true));
      t.shape.push_back(dim);
      if (!accept(Tok::Comma)) break;
    }
    return expect(Tok::RBracket);
  }

  Result<TileRef> parse_tile(bool element) {
    TileRef t;
    t.loc = loc();
    TG_ASSIGN_OR_RETURN(t.buffer, expect_ident(element ? "a buffer element" : "a tile"));
    if (!accept(Tok::LBracket)) {
      if (element) return fail_expected("'[' and the element's indices");
      return t;
    }
    for (;;) {
      TG_ASSIGN_OR_RETURN(Expr e, parse_expr());
      t.offsets.push_back(std::move(e));
      if (!accept(Tok::Comma)) break;
    }
    TG_RETURN_IF_ERROR(expect(Tok::RBracket));
    return t;
  }

  /// Attributes, and `loc="file:line:column"`, which the printer writes on lowered kernels:
  /// it becomes the owner's location (`*owner_loc`) instead of an attribute.
  Status parse_attrs(std::vector<Attr>& attrs, SourceLoc* owner_loc) {
    while (at(Tok::Comma) && peek_tok().kind == Tok::Ident && peek_tok(2).kind == Tok::Assign) {
      next();
      Attr a;
      a.loc = loc();
      a.name = cur().text;
      next();
      next();
      if (find_attr(attrs, a.name)) return error(ErrorCode::Parse, "attribute '" + a.name + "' given twice", a.loc);
      TG_ASSIGN_OR_RETURN(a.value, parse_attr_value());
      if (a.name == "loc") {
        TG_RETURN_IF_ERROR(read_loc(a, owner_loc));
        continue;
      }
      attrs.push_back(std::move(a));
    }
    return Status::ok();
  }

  static Status read_loc(const Attr& a, SourceLoc* out) {
    auto bad = [&] { return error(ErrorCode::Parse, "loc must be \"file:line:column\"", a.loc); };
    if (a.value.kind != AttrValue::Kind::String) return bad();
    const std::string& text = a.value.s;
    size_t c2 = text.rfind(':');
    size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : text.rfind(':', c2 - 1);
    if (c1 == std::string::npos || c1 == 0) return bad();
    char* end = nullptr;
    long line = std::strtol(text.c_str() + c1 + 1, &end, 10);
    if (end != text.c_str() + c2 || line < 1 || line > 1 << 30) return bad();
    long column = std::strtol(text.c_str() + c2 + 1, &end, 10);
    if (*end || c2 + 1 == text.size() || column < 0 || column > 1 << 30) return bad();
    *out = SourceLoc{text.substr(0, c1), int(line), int(column)};
    return Status::ok();
  }

  Result<AttrValue> parse_attr_value() {
    DepthGuard guard(*this);
    TG_RETURN_IF_ERROR(check_depth());
    if (accept(Tok::LBracket)) {
      std::vector<AttrValue> items;
      if (!at(Tok::RBracket)) {
        for (;;) {
          TG_ASSIGN_OR_RETURN(AttrValue v, parse_attr_value());
          items.push_back(std::move(v));
          if (!accept(Tok::Comma)) break;
        }
      }
      TG_RETURN_IF_ERROR(expect(Tok::RBracket));
      return AttrValue::of_list(std::move(items));
    }
    if (at(Tok::String)) {
      std::string s = cur().text;
      next();
      return AttrValue::of_string(std::move(s));
    }
    bool negative = accept(Tok::Minus);
    if (at(Tok::Int)) {
      int64_t v = cur().int_value;
      next();
      return AttrValue::of_int(negative ? -v : v);
    }
    if (at(Tok::Float) || at_ident("inf") || at_ident("nan")) {
      double v = at(Tok::Float) ? cur().float_value : (cur().text == "inf" ? INFINITY : NAN);
      next();
      return AttrValue::of_float(negative ? -v : v);
    }
    if (negative) return fail_expected("a number after '-'");
    if (at_ident("true") || at_ident("false")) {
      bool v = cur().text == "true";
      next();
      return AttrValue::of_bool(v);
    }
    if (at(Tok::Ident)) {
      std::string s = cur().text;
      next();
      return AttrValue::of_ident(std::move(s));
    }
    return fail_expected("an attribute value");
  }

  // --- expressions -------------------------------------------------------------------
  bool is_buffer(const std::string& name) const {
    for (const auto& scope : scopes_)
      if (scope.count(name)) return true;
    return false;
  }

  std::optional<BinaryOp> binary_at() const {
    switch (cur().kind) {
      case Tok::OrOr: return BinaryOp::Or;
      case Tok::AndAnd: return BinaryOp::And;
      case Tok::EqEq: return BinaryOp::Eq;
      case Tok::Ne: return BinaryOp::Ne;
      case Tok::Lt: return BinaryOp::Lt;
      case Tok::Le: return BinaryOp::Le;
      case Tok::Gt: return BinaryOp::Gt;
      case Tok::Ge: return BinaryOp::Ge;
      case Tok::Plus: return BinaryOp::Add;
      case Tok::Minus: return BinaryOp::Sub;
      case Tok::Star: return BinaryOp::Mul;
      case Tok::Slash: return BinaryOp::Div;
      case Tok::Percent: return BinaryOp::Mod;
      case Tok::Amp: return BinaryOp::BitAnd;
      case Tok::Pipe: return BinaryOp::BitOr;
      case Tok::Caret: return BinaryOp::BitXor;
      case Tok::Shl: return BinaryOp::Shl;
      case Tok::Shr: return BinaryOp::Shr;
      case Tok::ShrLogical: return BinaryOp::ShrLogical;
      default: return std::nullopt;
    }
  }

  Result<Expr> parse_expr(int min_prec = 1) {
    DepthGuard guard(*this);
    TG_RETURN_IF_ERROR(check_depth());
    TG_ASSIGN_OR_RETURN(Expr lhs, parse_unary());
    // A left-deep chain (x + x + ... + x) grows here without recursing, so the depth guard
    // does not see it; its height is counted instead (every subtree is already bounded).
    int height = expr_height(lhs, kMaxExprHeight);
    for (;;) {
      auto op = binary_at();
      if (!op || binary_precedence(*op) < min_prec) return lhs;
      SourceLoc op_loc = loc();
      next();
      TG_ASSIGN_OR_RETURN(Expr rhs, parse_expr(binary_precedence(*op) + 1));
      height = std::max(height, expr_height(rhs, kMaxExprHeight)) + 1;
      if (height > kMaxExprHeight)
        return error(ErrorCode::Parse,
                     "expression is nested too deeply (more than " + std::to_string(kMaxExprHeight) + " operators deep)",
                     op_loc);
      lhs = binary(*op, std::move(lhs), std::move(rhs), op_loc);
    }
  }

  Result<Expr> parse_unary() {
    DepthGuard guard(*this);
    TG_RETURN_IF_ERROR(check_depth());
    SourceLoc l = loc();
    if (accept(Tok::Minus)) {
      // A minus before a literal is part of the literal, so printing is a fixed point.
      if (at(Tok::Int)) {
        int64_t v = cur().int_value;
        next();
        return int_imm(-v, l);
      }
      if (at(Tok::Float) || at_ident("inf")) {
        double v = at(Tok::Float) ? cur().float_value : INFINITY;
        next();
        return float_imm(-v, l);
      }
      TG_ASSIGN_OR_RETURN(Expr x, parse_unary());
      return unary(UnaryOp::Neg, std::move(x), l);
    }
    if (accept(Tok::Bang)) {
      TG_ASSIGN_OR_RETURN(Expr x, parse_unary());
      return unary(UnaryOp::Not, std::move(x), l);
    }
    if (accept(Tok::Tilde)) {
      TG_ASSIGN_OR_RETURN(Expr x, parse_unary());
      return unary(UnaryOp::BitNot, std::move(x), l);
    }
    return parse_primary();
  }

  Result<std::vector<Expr>> parse_call_args(size_t n, const std::string& fn) {
    TG_RETURN_IF_ERROR(expect(Tok::LParen));
    std::vector<Expr> args;
    if (!at(Tok::RParen)) {
      for (;;) {
        TG_ASSIGN_OR_RETURN(Expr e, parse_expr());
        args.push_back(std::move(e));
        if (!accept(Tok::Comma)) break;
      }
    }
    if (args.size() != n)
      return fail(fn + " takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", found " +
                  std::to_string(args.size()));
    TG_RETURN_IF_ERROR(expect(Tok::RParen));
    return args;
  }

  /// idx(a): the axis is a literal, so that which index an expression reads is known when
  /// it is verified (a rank check) and lowered (a per-register constant).
  Result<Expr> parse_elem_index(const SourceLoc& l) {
    TG_RETURN_IF_ERROR(expect(Tok::LParen));
    if (!at(Tok::Int))
      return fail("idx takes the axis as a non-negative integer literal (idx(0), idx(1), ...), found " +
                  describe(cur()));
    int64_t axis = cur().int_value;
    next();
    TG_RETURN_IF_ERROR(expect(Tok::RParen));
    return elem_index(axis, l);
  }

  Result<Expr> parse_primary() {
    SourceLoc l = loc();
    if (at(Tok::Int)) {
      int64_t v = cur().int_value;
      next();
      return int_imm(v, l);
    }
    if (at(Tok::Float)) {
      double v = cur().float_value;
      next();
      return float_imm(v, l);
    }
    if (accept(Tok::LParen)) {
      TG_ASSIGN_OR_RETURN(Expr e, parse_expr());
      TG_RETURN_IF_ERROR(expect(Tok::RParen));
      return e;
    }
    if (!at(Tok::Ident)) return fail_expected("an expression");
    std::string name = cur().text;
    next();
    if (name == "inf") return float_imm(INFINITY, l);
    if (name == "nan") return float_imm(NAN, l);
    if (name == "cast") {
      TG_RETURN_IF_ERROR(expect(Tok::Lt));
      TG_ASSIGN_OR_RETURN(DType to, parse_dtype_tok());
      TG_RETURN_IF_ERROR(expect(Tok::Gt));
      TG_ASSIGN_OR_RETURN(auto args, parse_call_args(1, "cast"));
      return cast(to, args[0], l);
    }
    if (name == "bitcast") {
      TG_RETURN_IF_ERROR(expect(Tok::Lt));
      TG_ASSIGN_OR_RETURN(DType to, parse_dtype_tok());
      TG_RETURN_IF_ERROR(expect(Tok::Gt));
      TG_ASSIGN_OR_RETURN(auto args, parse_call_args(1, "bitcast"));
      return bitcast(to, args[0], l);
    }
    if (name == "select") {
      TG_ASSIGN_OR_RETURN(auto args, parse_call_args(3, "select"));
      return select(args[0], args[1], args[2], l);
    }
    if (name == "idx" && at(Tok::LParen)) return parse_elem_index(l);
    if (auto u = unary_from_call(name); u && at(Tok::LParen)) {
      TG_ASSIGN_OR_RETURN(auto args, parse_call_args(1, name));
      return unary(*u, args[0], l);
    }
    if (auto b = binary_from_call(name); b && at(Tok::LParen)) {
      TG_ASSIGN_OR_RETURN(auto args, parse_call_args(2, name));
      return binary(*b, args[0], args[1], l);
    }
    if (at(Tok::LParen)) return error(ErrorCode::Parse, "unknown function '" + name + "'", l);
    if (accept(Tok::LBracket)) {
      std::vector<Expr> idx;
      for (;;) {
        TG_ASSIGN_OR_RETURN(Expr e, parse_expr());
        idx.push_back(std::move(e));
        if (!accept(Tok::Comma)) break;
      }
      TG_RETURN_IF_ERROR(expect(Tok::RBracket));
      return load(name, std::move(idx), l);
    }
    if (is_buffer(name)) return tile_use(name, l);
    return var(name, l);
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::string file_;
  const Binding* binding_ = nullptr;
  bool space_only_ = false;
  TuneSpace space_;
  int depth_ = 0;
  std::vector<std::set<std::string>> scopes_{1};
};

}  // namespace

Result<Kernel> parse_kernel(std::string_view text, const std::string& file, const Binding* binding) {
  return Parser(tokenize(text), file, binding).parse();
}

Result<TuneSpace> parse_tune_space(std::string_view text, const std::string& file) {
  return Parser(tokenize(text), file).parse_space();
}

Result<Kernel> parse_and_verify(std::string_view text, const std::string& file, const Binding* binding) {
  TG_ASSIGN_OR_RETURN(Kernel k, parse_kernel(text, file, binding));
  TG_RETURN_IF_ERROR(verify(k));
  return k;
}

Result<Kernel> parse_and_verify_specialized(std::string_view text, const std::string& file, const Binding* binding,
                                            const Binding& shape_values) {
  // The symbols are those of the kernel as written: checked on the generic parse, so that a
  // value for a name that is not a shape symbol (a loop variable, a buffer) is refused
  // rather than spliced in.
  TG_ASSIGN_OR_RETURN(Kernel generic, parse_kernel(text, file, binding));
  std::vector<std::string> symbols = generic.symbols();
  for (const auto& [name, value] : shape_values) {
    if (std::find(symbols.begin(), symbols.end(), name) == symbols.end())
      return error(ErrorCode::InvalidArgument, "kernel " + generic.name + " has no shape symbol '" + name + "'", generic.loc);
    if (value < 0)
      return error(ErrorCode::InvalidArgument, "shape symbol " + name + " = " + std::to_string(value) + " is negative", generic.loc);
  }
  for (const std::string& sym : symbols) {
    bool given = std::any_of(shape_values.begin(), shape_values.end(), [&](const auto& v) { return v.first == sym; });
    if (!given) return error(ErrorCode::InvalidArgument, "shape symbol " + sym + " of kernel " + generic.name + " has no value", generic.loc);
  }
  std::vector<Token> tokens = tokenize(text);
  for (Token& t : tokens) {
    if (t.kind != Tok::Ident) continue;
    for (const auto& [name, value] : shape_values) {
      if (t.text != name) continue;
      t.kind = Tok::Int;
      t.int_value = value;
      t.text = std::to_string(value);
    }
  }
  TG_ASSIGN_OR_RETURN(Kernel k, Parser(std::move(tokens), file, binding).parse());
  TG_RETURN_IF_ERROR(verify(k));
  return k;
}

}  // namespace tegula::ir
