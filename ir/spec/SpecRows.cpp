// Row reductions and softmax (ir/spec/SpecGen.h), the structure of examples/reduce/row_sum
// and examples/softmax/softmax_rows with tunable rows per block (R), column tile (W) and
// threads (T): Y[b?, m] = g(sum(f(X[b?, m, n]))) and Y[b?, m, n] = softmax(f(X[b?, m, n]), n).
// Roles: the reduced index is X's last axis, walked in tiles of W by a serial loop; the row
// index is the block's rows (bx * R); a leading index is grid y (by, a view). Register
// tiles: x_t, an [R, W] fragment, and one value per row. Columns past N read as the
// reduction's identity (the copy's pad, or a select after an elementwise f).
#include <algorithm>

#include "ir/spec/SpecGen.h"

namespace tegula::ir::spec {
namespace {

constexpr const char* kTune =
    "    tune($R in [1, 2, 4, 8], $W in [128, 256, 512, 1024], $T in [32, 64, 128, 256])\n"
    "    where($R * $W <= $T * 64, $R * $W >= $T * 2)\n";

struct RowRoles {
  const Expr* x = nullptr;  // the tensor reduced (every ref inside the call is it)
  std::string batch, row, reduced;
};

Result<RowRoles> row_roles(const Expr& call, const Expr& arg) {
  std::vector<const Expr*> inside;
  collect_refs(arg, &inside);
  if (inside.empty()) return spec_error(arg.column, call.name + "() needs a tensor to reduce");
  RowRoles roles;
  roles.x = inside[0];
  for (const Expr* r : inside)
    if (r->name != roles.x->name)
      return spec_error(r->column, call.name + "() reads one tensor (" + roles.x->name + "), not also " + r->name);
  const std::vector<std::string>& ix = roles.x->indices;
  if (ix.size() != 2 && ix.size() != 3)
    return spec_error(roles.x->column, call.name + "() reduces a tensor of two indices (m, n) or three (a batch index first)");
  roles.reduced = ix.back();
  roles.row = ix[ix.size() - 2];
  if (ix.size() == 3) roles.batch = ix[0];
  return roles;
}

struct Emitter {
  std::string out;
  void line(const std::string& s) { out += "  " + s + "\n"; }
};

// `reference`: the examples' direct computation of this exact form, or empty.
std::string header(const Checked& c, const RowRoles& roles, const std::string& what,
                   const std::vector<std::string>& params, const std::string& grid, const std::string& reference) {
  std::vector<std::string> lines = {
      "roles: " + roles.row + " -> block rows (bx * $R)" + (roles.batch.empty() ? "" : ", " + roles.batch + " -> grid y (by)") +
          ", " + roles.reduced + " -> " + what + " over column tiles of $W (j * $W)",
      "register tiles: x_t, fragment " + std::string(dtype_name(c.acc)) + "[$R, $W], and one value per row",
      "tunables: rows per block $R, column tile $W, threads $T (at most 64 and at least 2 elements a thread)"};
  std::string plist;
  for (const std::string& p : params) plist += (plist.empty() ? "" : ", ") + p;
  return header_comment(c, lines) + "kernel " + c.name + "(" + plist + ")\n" + kTune + "    grid(" + grid +
         ") threads($T)" +
         (reference.empty() ? "" : ", reference=" + reference) + " {\n";
}

std::vector<std::string> shape(const Checked& c, const std::vector<std::string>& ix) {
  std::vector<std::string> s;
  for (const std::string& i : ix) s.push_back(symbol(c, i));
  return s;
}

// The map that applies f to x_t: empty when f is X itself (the copy's pad does the masking).
Result<std::string> pre_map(const Checked& c, const Expr& arg, const RowRoles& roles, const std::string& identity) {
  if (arg.kind == Expr::Kind::Ref) return std::string();
  Leaf leaf = [&](const Expr& e, std::string* text) {
    if (e.kind != Expr::Kind::Ref) return false;
    *text = "x_t";
    return true;
  };
  TG_ASSIGN_OR_RETURN(std::string f, render(arg, leaf));
  return "map x_t = select(j * $W + idx(1) < " + symbol(c, roles.reduced) + ", " + f + ", " + identity + ")";
}

std::string grid_of(const Checked& c, const RowRoles& roles) {
  return "ceildiv(" + symbol(c, roles.row) + ", $R)" + (roles.batch.empty() ? "" : ", " + symbol(c, roles.batch));
}

Result<std::string> generate_reduce(const Checked& c, const Expr& call) {
  TG_ASSIGN_OR_RETURN(RowRoles roles, row_roles(call, call.args[0]));
  const Expr& out = c.s.out;
  for (size_t a = 0; a < out.indices.size(); ++a)
    if (out.indices[a] == roles.reduced)
      return spec_error(out.index_columns[a], "index '" + roles.reduced + "' is reduced by " + call.name +
                                                  "() (column " + std::to_string(call.column) + ") but is on the output");
  std::vector<std::string> kept(roles.x->indices.begin(), roles.x->indices.end() - 1);
  if (out.indices != kept)
    return spec_error(out.column, "the output must keep " + roles.x->name + "'s other indices in order (" +
                                      roles.x->name + "'s last index is the one reduced)");
  std::vector<const Expr*> all;
  collect_refs(c.s.rhs, &all);
  for (const Expr* r : all)
    if (r->name != roles.x->name)
      return spec_error(r->column, "only numbers and scalars may combine with the result of " + call.name + "()");
  bool post = &c.s.rhs != &call;
  if (c.s.accumulate && (post || call.name != "sum"))
    return spec_error(c.s.out.column, "+= is supported for a bare sum(...) only");
  std::string identity = call.name == "sum" ? "0.0" : call.name == "max" ? "-inf" : "inf";
  std::vector<std::string> params = {param(c, roles.x->name, shape(c, roles.x->indices)), param(c, out.name, shape(c, out.indices))};
  for (const std::string& s : c.scalars) params.push_back(param(c, s, {}));
  Emitter em;
  bool plain = !post && !c.s.accumulate && call.args[0].kind == Expr::Kind::Ref && roles.batch.empty();
  em.out = header(c, roles, call.name, params, grid_of(c, roles), plain && call.name == "sum" ? "sum_rows" : "");
  std::string lead = roles.batch.empty() ? "" : "by, ";
  std::string acc_dtype = dtype_name(c.acc);
  em.line("alloc x_t: fragment " + acc_dtype + "[$R, $W]");
  em.line("alloc acc: fragment " + acc_dtype + "[$R]");
  if (c.s.accumulate) em.line("copy " + out.name + "[" + lead + "bx * $R], acc");
  else em.line("fill acc, " + identity);
  TG_ASSIGN_OR_RETURN(std::string f, pre_map(c, call.args[0], roles, identity));
  em.line("for j in 0 .. ceildiv(" + symbol(c, roles.reduced) + ", $W) {");
  em.line("  copy " + roles.x->name + "[" + lead + "bx * $R, j * $W], x_t" + (identity == "0.0" ? "" : ", pad=" + identity));
  if (!f.empty()) em.line("  " + f);
  em.line("  reduce x_t, acc, op=" + call.name + ", axis=1, clear=false");
  em.line("}");
  if (post) {
    Leaf leaf = [&](const Expr& e, std::string* text) {
      if (&e != &call) return false;
      *text = "acc";
      return true;
    };
    TG_ASSIGN_OR_RETURN(std::string g, render(c.s.rhs, leaf));
    em.line("map acc = " + g);
  }
  em.line("copy acc, " + out.name + "[" + lead + "bx * $R]");
  em.out += "}\n";
  return em.out;
}

Result<std::string> generate_softmax(const Checked& c, const Expr& call) {
  if (call.args.size() != 2 || call.args[1].kind != Expr::Kind::Name)
    return spec_error(call.column, "softmax takes a tensor expression and the index it normalizes over: softmax(X[m, n], n)");
  if (&c.s.rhs != &call) return spec_error(call.column, "softmax(...) must be the whole right-hand side");
  if (c.s.accumulate) return spec_error(c.s.out.column, "+= is not supported for softmax");
  TG_ASSIGN_OR_RETURN(RowRoles roles, row_roles(call, call.args[0]));
  if (call.args[1].name != roles.reduced)
    return spec_error(call.args[1].column, "softmax normalizes over " + roles.x->name + "'s last index (" + roles.reduced +
                                               "), not '" + call.args[1].name + "'");
  const Expr& out = c.s.out;
  if (out.indices != roles.x->indices)
    return spec_error(out.column, "the output of softmax must have " + roles.x->name + "'s indices, in order");
  std::vector<std::string> params = {param(c, roles.x->name, shape(c, roles.x->indices)), param(c, out.name, shape(c, out.indices))};
  for (const std::string& s : c.scalars) params.push_back(param(c, s, {}));
  Emitter em;
  bool plain = call.args[0].kind == Expr::Kind::Ref && roles.batch.empty();
  em.out = header(c, roles, "softmax (a running max and sum, then a second pass)", params, grid_of(c, roles),
                  plain ? "softmax_rows" : "");
  std::string lead = roles.batch.empty() ? "" : "by, ";
  std::string t = dtype_name(c.acc);
  em.line("alloc x_t: fragment " + t + "[$R, $W]");
  for (const char* v : {"run_max", "run_sum", "new_max", "new_sum"}) em.line(std::string("alloc ") + v + ": fragment " + t + "[$R, 1]");
  em.line("fill run_max, -inf");
  em.line("fill run_sum, 0.0");
  TG_ASSIGN_OR_RETURN(std::string f, pre_map(c, call.args[0], roles, "-inf"));
  std::string loop = "for j in 0 .. ceildiv(" + symbol(c, roles.reduced) + ", $W) {";
  std::string load = "  copy " + roles.x->name + "[" + lead + "bx * $R, j * $W], x_t, pad=-inf";
  em.line(loop);
  em.line(load);
  if (!f.empty()) em.line("  " + f);
  em.line("  reduce x_t, new_max, op=max, axis=1");
  em.line("  map new_max = max(run_max, new_max)");
  em.line("  map x_t = exp(x_t - new_max)");
  em.line("  reduce x_t, new_sum, op=sum, axis=1");
  em.line("  map run_sum = run_sum * exp(run_max - new_max) + new_sum");
  em.line("  map run_max = new_max");
  em.line("}");
  em.line(loop);
  em.line(load);
  if (!f.empty()) em.line("  " + f);
  em.line("  map x_t = exp(x_t - run_max) / run_sum");
  em.line("  copy x_t, " + out.name + "[" + lead + "bx * $R, j * $W]");
  em.line("}");
  em.out += "}\n";
  return em.out;
}

}  // namespace

Result<std::string> generate_rows(const Checked& c, const Expr& call) {
  if (call.name == "softmax") return generate_softmax(c, call);
  return generate_reduce(c, call);
}

}  // namespace tegula::ir::spec
