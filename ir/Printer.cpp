#include "ir/Printer.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace tegula::ir {

std::string print_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s(buf);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  // "1e+20" has no '.', which is fine: the exponent already makes it a float literal.
  return s;
}

namespace {

// Prefix operators bind tighter than every binary operator (ir/OpList.h).
constexpr int kUnaryPrecedence = 10;

void print_expr_to(std::string& out, const Expr& e, int parent_prec, bool right_child);

void print_args(std::string& out, const std::vector<Expr>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    print_expr_to(out, args[i], 0, false);
  }
}

void print_expr_to(std::string& out, const Expr& e, int parent_prec, bool right_child) {
  if (!e) {
    out += "<null>";
    return;
  }
  switch (e->kind) {
    case ExprKind::IntImm: out += std::to_string(e->int_value); return;
    case ExprKind::FloatImm: out += print_float(e->float_value); return;
    case ExprKind::Var:
    case ExprKind::Tile: out += e->name; return;
    case ExprKind::ElemIndex: out += "idx(" + std::to_string(e->int_value) + ")"; return;
    case ExprKind::Load:
      out += e->name;
      out += "[";
      print_args(out, e->args);
      out += "]";
      return;
    case ExprKind::Unary:
      if (unary_is_prefix(e->unary)) {
        out += unary_spelling(e->unary);
        // '-(3)' keeps a negated literal apart from the literal -3.
        const Expr& x = e->args[0];
        bool literal = x->kind == ExprKind::IntImm || x->kind == ExprKind::FloatImm;
        if (literal) {
          out += "(";
          print_expr_to(out, x, 0, false);
          out += ")";
        } else {
          print_expr_to(out, x, kUnaryPrecedence, false);
        }
        return;
      }
      out += unary_spelling(e->unary);
      out += "(";
      print_args(out, e->args);
      out += ")";
      return;
    case ExprKind::Binary: {
      int prec = binary_precedence(e->binary);
      if (prec == 0) {
        out += binary_spelling(e->binary);
        out += "(";
        print_args(out, e->args);
        out += ")";
        return;
      }
      bool parens = prec < parent_prec || (prec == parent_prec && right_child);
      if (parens) out += "(";
      print_expr_to(out, e->args[0], prec, false);
      out += " ";
      out += binary_spelling(e->binary);
      out += " ";
      print_expr_to(out, e->args[1], prec, true);
      if (parens) out += ")";
      return;
    }
    case ExprKind::Cast:
      out += "cast<";
      out += dtype_name(e->cast_to);
      out += ">(";
      print_args(out, e->args);
      out += ")";
      return;
    case ExprKind::Bitcast:
      out += "bitcast<";
      out += dtype_name(e->cast_to);
      out += ">(";
      print_args(out, e->args);
      out += ")";
      return;
    case ExprKind::Select:
      out += "select(";
      print_args(out, e->args);
      out += ")";
      return;
  }
}

void print_attrs(std::string& out, const std::vector<Attr>& attrs) {
  for (const Attr& a : attrs) {
    out += ", ";
    out += a.name;
    out += "=";
    out += print_attr_value(a.value);
  }
}

std::string dims(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

void print_block(std::string& out, const Block& b, int indent, bool locs);

/// Print the operands of `s` by walking its op's format, the same walk the parser makes.
void print_operands(std::string& out, const Stmt& s) {
  const char* f = op_info(s.op).format;
  size_t tile = 0, expr = 0, var_i = 0;
  std::string_view fmt(f);
  size_t i = 0;
  while (i < fmt.size()) {
    if (fmt[i] == ' ') {
      ++i;
      continue;
    }
    if (fmt[i] != '%') {
      size_t start = i;
      if (fmt[i] == '.') {
        i += 2;
      } else if (fmt[i] >= 'a' && fmt[i] <= 'z') {
        while (i < fmt.size() && fmt[i] >= 'a' && fmt[i] <= 'z') ++i;
      } else {
        ++i;
      }
      std::string_view lit = fmt.substr(start, i - start);
      if (lit == "," || lit == ":") {
        out += lit;
      } else {
        out += " ";
        out += lit;
      }
      continue;
    }
    size_t start = ++i;
    while (i < fmt.size() && fmt[i] >= 'a' && fmt[i] <= 'z') ++i;
    std::string_view d = fmt.substr(start, i - start);
    out += " ";
    if (d == "name") {
      out += s.name;
    } else if (d == "type") {
      out += scope_name(s.type.scope);
      out += " ";
      out += dtype_name(s.type.dtype);
      out += dims(s.type.shape);
    } else if (d == "tile" || d == "elem") {
      out += tile < s.tiles.size() ? print_tile(s.tiles[tile]) : "<missing>";
      ++tile;
    } else if (d == "expr") {
      out += expr < s.exprs.size() ? print_expr(s.exprs[expr]) : "<missing>";
      ++expr;
    } else if (d == "var") {
      out += var_i < s.vars.size() ? s.vars[var_i] : "<missing>";
      ++var_i;
    } else if (d == "vars") {
      if (s.vars.size() == 1) {
        out += s.vars[0];
      } else {
        out += "(";
        for (size_t k = 0; k < s.vars.size(); ++k) out += (k ? ", " : "") + s.vars[k];
        out += ")";
      }
      var_i = s.vars.size();
    } else if (d == "exprs") {
      size_t n = s.exprs.size() - expr;
      if (n != 1) out += "(";
      for (size_t k = 0; k < n; ++k) {
        if (k) out += ", ";
        out += print_expr(s.exprs[expr + k]);
      }
      if (n != 1) out += ")";
      expr = s.exprs.size();
    }
  }
}

/// `, loc="file:line:column"`: where a statement of a lowered kernel came from, so that what a
/// backend says about the lowered text names the .tile line (the parser reads it back).
void print_loc(std::string& out, const SourceLoc& loc, bool locs) {
  if (!locs || !loc.known()) return;
  out += ", loc=";
  out += print_attr_value(AttrValue::of_string(loc.str()));
}

void print_stmt_to(std::string& out, const Stmt& s, int indent, bool locs) {
  out.append(indent, ' ');
  out += op_info(s.op).keyword;
  print_operands(out, s);
  print_attrs(out, s.attrs);
  print_loc(out, s.loc, locs);
  for (size_t i = 0; i < s.blocks.size(); ++i) {
    out += i == 0 ? " " : " else ";
    print_block(out, s.blocks[i], indent, locs);
  }
  out += "\n";
}

void print_block(std::string& out, const Block& b, int indent, bool locs) {
  out += "{\n";
  for (const Stmt& s : b.stmts) print_stmt_to(out, s, indent + 2, locs);
  out.append(indent, ' ');
  out += "}";
  // A block ends its statement unless an else follows; the caller adds the newline.
}

}  // namespace

std::string print_attr_value(const AttrValue& v) {
  switch (v.kind) {
    case AttrValue::Kind::Bool: return v.b ? "true" : "false";
    case AttrValue::Kind::Int: return std::to_string(v.i);
    case AttrValue::Kind::Float: return print_float(v.f);
    case AttrValue::Kind::Ident: return v.s;
    case AttrValue::Kind::String: {
      std::string s = "\"";
      for (char c : v.s) {
        if (c == '"' || c == '\\') s += '\\';
        if (c == '\n') {
          s += "\\n";
          continue;
        }
        s += c;
      }
      return s + "\"";
    }
    case AttrValue::Kind::List: {
      std::string s = "[";
      for (size_t i = 0; i < v.list.size(); ++i) {
        if (i) s += ", ";
        s += print_attr_value(v.list[i]);
      }
      return s + "]";
    }
  }
  return "?";
}

std::string print_expr(const Expr& e) {
  std::string out;
  print_expr_to(out, e, 0, false);
  return out;
}

std::string print_tile(const TileRef& t) {
  std::string out = t.buffer;
  if (t.offsets.empty()) return out;
  out += "[";
  print_args(out, t.offsets);
  return out + "]";
}

std::string print_stmt(const Stmt& s, int indent) {
  std::string out;
  print_stmt_to(out, s, indent, false);
  return out;
}

std::string print_kernel(const Kernel& k) {
  std::string out = "kernel " + k.name + "(";
  for (size_t i = 0; i < k.params.size(); ++i) {
    const Param& p = k.params[i];
    if (i) out += ", ";
    out += p.name + ": " + dtype_name(p.dtype);
    if (!p.is_tensor) continue;
    out += "[";
    print_args(out, p.shape);
    out += "]";
  }
  out += ") grid(";
  print_args(out, k.grid);
  out += ") threads(" + std::to_string(k.threads) + ")";
  print_attrs(out, k.attrs);
  // A lowered kernel carries its source locations (see print_loc).
  bool locs = find_attr(k.attrs, "lower.target") != nullptr;
  print_loc(out, k.loc, locs);
  out += " {\n";
  for (const Stmt& s : k.body.stmts) print_stmt_to(out, s, 2, locs);
  out += "}\n";
  return out;
}

}  // namespace tegula::ir
