// Contractions (ir/spec/SpecGen.h): C[b?, m, n] (+)= epilogue(A[.., m/k ..] * B[.., k/n ..]).
// Roles: the output's last two indices are the block tile's rows (by * BM) and columns
// (bx * BN), a leading output index is grid z (bz, a view of every 3-D tensor that has it),
// the one index that both operands share and the output lacks is the pipelined K loop.
// Register tile: a fragment accumulator; memory tiles: the operands' shared tiles, in the
// layout their index order gives (gemm trans_a / trans_b), and one shared tile per epilogue
// tensor, read after the loop. The epilogue is one map on the accumulator before the store.
#include <algorithm>

#include "ir/spec/SpecGen.h"

namespace tegula::ir::spec {
namespace {

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The product A * B whose operands share an index the output lacks.
void find_products(const Expr& e, const std::vector<std::string>& out, std::vector<const Expr*>* found) {
  if (e.kind == Expr::Kind::Binary && e.op == '*' && e.args[0].kind == Expr::Kind::Ref &&
      e.args[1].kind == Expr::Kind::Ref) {
    for (const std::string& i : e.args[0].indices)
      if (!has(out, i) && has(e.args[1].indices, i)) {
        found->push_back(&e);
        return;
      }
  }
  for (const Expr& a : e.args) find_products(a, out, found);
}

struct Roles {
  std::string batch, row, col, k;  // batch empty without one
};

// One operand: (row or col, k) in either order, after the batch index when it has one.
// *trans: stored k-major for the A side, n-major for the B side.
Status operand_layout(const Expr& r, const Roles& roles, const std::string& own, bool a_side, bool* trans) {
  std::vector<std::string> ix = r.indices;
  if (!roles.batch.empty() && !ix.empty() && ix[0] == roles.batch) ix.erase(ix.begin());
  bool fits = ix.size() == 2 && ((ix[0] == own && ix[1] == roles.k) || (ix[0] == roles.k && ix[1] == own));
  if (!fits) {
    std::string want = "(" + own + ", " + roles.k + ") in either order";
    if (!roles.batch.empty()) want += ", after the batch index " + roles.batch + " when it has one";
    return spec_error(r.column, r.name + "[...] must be indexed " + want);
  }
  *trans = a_side ? ix[0] == roles.k : ix[0] == own;
  return Status::ok();
}

// An epilogue tensor: the batch index or not, then a subsequence of (row, col).
Status epilogue_layout(const Expr& r, const Roles& roles) {
  std::vector<std::string> ix = r.indices;
  if (!roles.batch.empty() && !ix.empty() && ix[0] == roles.batch) ix.erase(ix.begin());
  bool fits = (ix.size() == 2 && ix[0] == roles.row && ix[1] == roles.col) ||
              (ix.size() == 1 && (ix[0] == roles.row || ix[0] == roles.col));
  if (fits) return Status::ok();
  std::string order = roles.batch.empty() ? "" : roles.batch + ", ";
  return spec_error(r.column, "mismatched ranks: " + r.name + "[...] must index (" + order + roles.row + ", " + roles.col +
                                  "), (" + order + roles.col + ") or (" + order + roles.row + ") in that order, as the output");
}

Result<Roles> find_roles(const Checked& c, const Expr& product) {
  const Expr& out = c.s.out;
  if (out.indices.size() != 2 && out.indices.size() != 3)
    return spec_error(out.column, "a contraction's output has two indices (m, n) or three (a batch index first), not " +
                                      std::to_string(out.indices.size()));
  Roles roles;
  size_t n = out.indices.size();
  roles.row = out.indices[n - 2];
  roles.col = out.indices[n - 1];
  if (n == 3) roles.batch = out.indices[0];
  std::vector<std::string> ks;
  for (const std::string& i : product.args[0].indices)
    if (!has(out.indices, i) && has(product.args[1].indices, i)) ks.push_back(i);
  if (ks.size() != 1)
    return spec_error(product.column, "the product contracts over " + std::to_string(ks.size()) +
                                          " indices; one is supported (flatten the others into it)");
  roles.k = ks[0];
  return roles;
}

// Every index that is on no output must be the contracted one.
Status check_reduction_indices(const Checked& c, const std::vector<const Expr*>& refs, const Roles& roles) {
  for (const Expr* r : refs)
    for (size_t a = 0; a < r->indices.size(); ++a) {
      const std::string& i = r->indices[a];
      if (has(c.s.out.indices, i) || i == roles.k) continue;
      return spec_error(r->index_columns[a], "index '" + i + "' is on no output and is not the contracted index " +
                                                 roles.k + " (an index summed over must appear in both operands of the product)");
    }
  return Status::ok();
}

struct Emitter {
  const Checked& c;
  Roles roles;
  std::string out;
  void line(const std::string& s) { out += "  " + s + "\n"; }
  // The global offsets of a tensor indexed by `ix` at the block's tile.
  std::string offsets(const std::vector<std::string>& ix, bool row_vector) const {
    std::string o;
    for (const std::string& i : ix) {
      std::string v = i == roles.batch ? "bz" : i == roles.row ? "by * $BM" : i == roles.col ? "bx * $BN" : "kt * $BK";
      o += (o.empty() ? "" : ", ") + v;
    }
    return row_vector ? o + ", 0" : o;
  }
};

std::string tile_extent(const std::string& i, const Roles& roles) {
  return i == roles.row ? "$BM" : i == roles.col ? "$BN" : "$BK";
}

}  // namespace

Result<std::string> generate_gemm(const Checked& c) {
  std::vector<const Expr*> products;
  find_products(c.s.rhs, c.s.out.indices, &products);
  std::vector<const Expr*> refs;
  collect_refs(c.s.rhs, &refs);
  if (products.empty()) {
    for (const Expr* r : refs)
      for (size_t a = 0; a < r->indices.size(); ++a)
        if (!has(c.s.out.indices, r->indices[a]))
          return spec_error(r->index_columns[a], "index '" + r->indices[a] +
                                                     "' is on no output, but no product of two tensors contracts it");
    return spec_error(refs.empty() ? c.s.rhs.column : refs[0]->column, "no contraction or reduction: purely elementwise kernels are not generated");
  }
  if (products.size() > 1)
    return spec_error(products[1]->column, "one contraction per kernel (the first is at column " +
                                               std::to_string(products[0]->column) + ")");
  const Expr& product = *products[0];
  TG_ASSIGN_OR_RETURN(Roles roles, find_roles(c, product));
  TG_RETURN_IF_ERROR(check_reduction_indices(c, refs, roles));
  // The A side holds the output's row index, the B side its column index.
  const Expr* a = &product.args[0];
  const Expr* b = &product.args[1];
  if (has(a->indices, roles.col) && has(b->indices, roles.row)) std::swap(a, b);
  if (has(a->indices, roles.col))
    return spec_error(a->column, a->name + " holds both output indices " + roles.row + " and " + roles.col);
  if (has(b->indices, roles.row))
    return spec_error(b->column, b->name + " holds both output indices " + roles.row + " and " + roles.col);
  bool trans_a = false, trans_b = false;
  TG_RETURN_IF_ERROR(operand_layout(*a, roles, roles.row, true, &trans_a));
  TG_RETURN_IF_ERROR(operand_layout(*b, roles, roles.col, false, &trans_b));
  std::vector<const Expr*> epilogue;
  for (const Expr* r : refs) {
    if (r == a || r == b) continue;
    TG_RETURN_IF_ERROR(epilogue_layout(*r, roles));
    bool seen = false;
    for (const Expr* e : epilogue) seen = seen || e->name == r->name;
    if (!seen) epilogue.push_back(r);
  }
  // C += A * B starts the accumulator from C; C += f(A * B) adds C's tile after f.
  bool bare = &c.s.rhs == &product;
  bool add_output = c.s.accumulate && !bare;
  if (add_output) epilogue.push_back(&c.s.out);

  Emitter em{c, roles, {}};
  auto shape_of = [&](const Expr& r) {
    std::vector<std::string> s;
    for (const std::string& i : r.indices) s.push_back(symbol(c, i));
    // A vector along the rows is declared [M, 1] (the same bytes) so that its tile is
    // [BM, 1] and broadcasts along the columns; map aligns a lower-rank operand at the last axis.
    bool row_vector = r.indices.back() == roles.row;
    if (row_vector) s.push_back("1");
    return s;
  };
  std::vector<std::string> roles_text = {
      "roles: " + roles.row + " -> block rows (by * $BM), " + roles.col + " -> block columns (bx * $BN), " + roles.k +
      " -> the pipelined K loop (kt * $BK)" + (roles.batch.empty() ? "" : ", " + roles.batch + " -> grid z (bz)"),
      "register tile: acc, fragment " + std::string(dtype_name(c.acc)) + "[$BM, $BN]; memory tiles: shared tiles of " +
          a->name + (trans_a ? " (k-major: trans_a)" : "") + " and " + b->name + (trans_b ? " (n-major: trans_b)" : "") +
          " per K step" + (epilogue.empty() ? "" : ", one per epilogue tensor after the loop"),
      "tunables: block tile $BM x $BN, K step $BK, pipeline stages $S, threads $T" +
          std::string(roles.batch.empty() ? ", raster group $R;" : ";"),
      "the conditions keep the accumulator within 128 registers a thread and every warp with work (as",
      "examples/gemm/gemm_tuned_bf16)"};
  em.out = header_comment(c, roles_text);
  std::vector<std::string> params;
  std::vector<std::string> declared;
  for (const Expr* r : refs) {
    if (has(declared, r->name)) continue;
    declared.push_back(r->name);
    std::vector<std::string> operand_shape;
    for (const std::string& i : r->indices) operand_shape.push_back(symbol(c, i));
    params.push_back(param(c, r->name, r == a || r == b ? operand_shape : shape_of(*r)));
  }
  params.push_back(param(c, c.s.out.name, shape_of(c.s.out)));
  for (const std::string& s : c.scalars) params.push_back(param(c, s, {}));
  std::string plist;
  for (const std::string& p : params) plist += (plist.empty() ? "" : ", ") + p;
  em.out += "kernel " + c.name + "(" + plist + ")\n";
  // The raster group applies to a 2-D grid only: a batched gemm keeps launch order.
  const bool raster = roles.batch.empty();
  em.out += "    tune($BM in [64, 128, 256], $BN in [64, 128, 256], $BK in [32, 64], $S in [2, 3, 4], $T in [128, 256]" +
            std::string(raster ? ", $R in [1, 8]" : "") + ")\n";
  em.out += "    where($BM * $BN <= $T * 128, $BM * $BN >= $T * 16)\n";
  em.out += "    grid(ceildiv(" + symbol(c, roles.col) + ", $BN), ceildiv(" + symbol(c, roles.row) + ", $BM)" +
            (roles.batch.empty() ? "" : ", " + symbol(c, roles.batch)) + ") threads($T)";
  if (raster) em.out += ", raster=$R";
  // The plain GEMM names the examples' direct computation, so that tegula run checks it.
  bool plain = bare && !c.s.accumulate && !trans_a && !trans_b && roles.batch.empty() && epilogue.empty();
  em.out += plain ? ", reference=matmul {\n" : " {\n";
  auto tile_shape = [&](const Expr& r) {
    std::string s;
    for (const std::string& i : r.indices)
      if (i != roles.batch) s += (s.empty() ? "" : ", ") + tile_extent(i, roles);
    if (r.indices.back() == roles.row && r.indices.size() - (r.indices[0] == roles.batch) == 1) s += ", 1";
    return s;
  };
  em.line("alloc " + a->name + "_s: shared " + dtype_name(c.dtypes.at(a->name)) + "[" + tile_shape(*a) + "]");
  em.line("alloc " + b->name + "_s: shared " + dtype_name(c.dtypes.at(b->name)) + "[" + tile_shape(*b) + "]");
  for (const Expr* e : epilogue)
    em.line("alloc " + e->name + "_s: shared " + dtype_name(c.dtypes.at(e->name)) + "[" + tile_shape(*e) + "]");
  em.line(std::string("alloc acc: fragment ") + dtype_name(c.acc) + "[$BM, $BN]");
  std::string out_offsets = em.offsets(c.s.out.indices, false);
  if (c.s.accumulate && bare) em.line("copy " + c.s.out.name + "[" + out_offsets + "], acc");
  else em.line("fill acc, 0.0");
  em.line("pipelined kt in 0 .. ceildiv(" + symbol(c, roles.k) + ", $BK), stages=$S {");
  em.line("  copy " + a->name + "[" + em.offsets(a->indices, false) + "], " + a->name + "_s");
  em.line("  copy " + b->name + "[" + em.offsets(b->indices, false) + "], " + b->name + "_s");
  em.line("  gemm " + a->name + "_s, " + b->name + "_s, acc, accumulate=true" + (trans_a ? ", trans_a=true" : "") +
          (trans_b ? ", trans_b=true" : ""));
  em.line("}");
  for (const Expr* e : epilogue) {
    bool row_vector = e->indices.back() == roles.row;
    em.line("copy " + e->name + "[" + em.offsets(e->indices, row_vector) + "], " + e->name + "_s");
  }
  if (!bare) {
    Leaf leaf = [&](const Expr& e, std::string* text) {
      if (&e == &product) *text = "acc";
      else if (e.kind == Expr::Kind::Ref) *text = e.name + "_s";
      else return false;
      return true;
    };
    TG_ASSIGN_OR_RETURN(std::string expr, render(c.s.rhs, leaf));
    if (add_output) expr = c.s.out.name + "_s + " + expr;  // + and - associate: no parentheses needed
    em.line("map acc = " + expr);
  }
  em.line("copy acc, " + c.s.out.name + "[" + out_offsets + "]");
  em.out += "}\n";
  return em.out;
}

}  // namespace tegula::ir::spec
