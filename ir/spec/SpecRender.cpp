// Expression rendering for generated kernels (ir/spec/SpecGen.h): precedence-aware, so the
// printed maps read as a person would write them; numbers always print as float literals
// (the maps compute in floats).
#include <cctype>

#include "ir/spec/SpecGen.h"

namespace tegula::ir::spec {
namespace {

// 1: + -, 2: * /, 3: atoms, calls and prefix minus.
struct Text {
  std::string s;
  int prec = 3;
};

std::string paren(const Text& t, int need) { return t.prec < need ? "(" + t.s + ")" : t.s; }

const char* const kUnary[] = {"exp", "exp2", "log", "log2", "log1p", "sqrt", "rsqrt", "tanh", "erf", "sigmoid", "abs"};

Result<Text> render_text(const Expr& e, const Leaf& leaf);

Result<Text> render_call(const Expr& e, const Leaf& leaf) {
  std::vector<Text> args;
  for (const Expr& a : e.args) {
    TG_ASSIGN_OR_RETURN(Text t, render_text(a, leaf));
    args.push_back(std::move(t));
  }
  auto arity = [&](size_t n) -> Status {
    if (args.size() == n) return Status::ok();
    return spec_error(e.column, e.name + "() takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", not " +
                                    std::to_string(args.size()));
  };
  for (const char* f : kUnary) {
    if (e.name != f) continue;
    TG_RETURN_IF_ERROR(arity(1));
    return Text{e.name + "(" + args[0].s + ")", 3};
  }
  if (e.name == "max" || e.name == "min") {
    TG_RETURN_IF_ERROR(arity(2));
    return Text{e.name + "(" + args[0].s + ", " + args[1].s + ")", 3};
  }
  if (e.name == "relu") {
    TG_RETURN_IF_ERROR(arity(1));
    return Text{"max(" + args[0].s + ", 0.0)", 3};
  }
  if (e.name == "silu") {
    TG_RETURN_IF_ERROR(arity(1));
    return Text{paren(args[0], 2) + " * sigmoid(" + args[0].s + ")", 2};
  }
  if (e.name == "gelu") {
    // The exact GELU, x * Phi(x) = 0.5 x (1 + erf(x / sqrt(2))), as PyTorch's default.
    TG_RETURN_IF_ERROR(arity(1));
    std::string x = paren(args[0], 3);
    return Text{"0.5 * " + x + " * (1.0 + erf(" + x + " * 0.7071067811865476))", 2};
  }
  return spec_error(e.column, "unsupported function '" + e.name +
                                  "' (elementwise: exp exp2 log log2 log1p sqrt rsqrt tanh erf sigmoid abs max min "
                                  "relu silu gelu, cast<dtype>; reductions: sum max min softmax)");
}

Result<Text> render_text(const Expr& e, const Leaf& leaf) {
  std::string own;
  if (leaf(e, &own)) return Text{own, 3};
  switch (e.kind) {
    case Expr::Kind::Number: {
      bool integral = true;
      for (char ch : e.number) integral = integral && std::isdigit(static_cast<unsigned char>(ch));
      return Text{integral ? e.number + ".0" : e.number, 3};
    }
    case Expr::Kind::Name:
      return Text{e.name, 3};
    case Expr::Kind::Ref:
      return spec_error(e.column, "tensor " + e.name + " cannot be used here");
    case Expr::Kind::Neg: {
      TG_ASSIGN_OR_RETURN(Text a, render_text(e.args[0], leaf));
      return Text{"-" + paren(a, 3), 3};
    }
    case Expr::Kind::Cast: {
      if (!parse_dtype(e.name)) return spec_error(e.column, "unknown dtype '" + e.name + "' in cast<...>");
      TG_ASSIGN_OR_RETURN(Text a, render_text(e.args[0], leaf));
      return Text{"cast<" + e.name + ">(" + a.s + ")", 3};
    }
    case Expr::Kind::Call:
      return render_call(e, leaf);
    case Expr::Kind::Binary: {
      TG_ASSIGN_OR_RETURN(Text a, render_text(e.args[0], leaf));
      TG_ASSIGN_OR_RETURN(Text b, render_text(e.args[1], leaf));
      int prec = (e.op == '+' || e.op == '-') ? 1 : 2;
      // The right operand of - and / needs parentheses at equal precedence (a - (b + c)).
      int right_need = (e.op == '-' || e.op == '/') ? prec + 1 : prec;
      return Text{paren(a, prec) + " " + e.op + " " + paren(b, right_need), prec};
    }
  }
  return spec_error(e.column, "unsupported expression");
}

}  // namespace

Result<std::string> render(const Expr& e, const Leaf& leaf) {
  TG_ASSIGN_OR_RETURN(Text t, render_text(e, leaf));
  return t.s;
}

}  // namespace tegula::ir::spec
