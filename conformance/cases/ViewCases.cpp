/// \file
/// Rank-dropping views (ir/OpList.h, copy): a 4-D tensor [B, H, S, D] and a 3-D one read
/// and written as 2-D tiles of one head, with a tail along S (and along D), a leading index
/// past the tensor (the grid runs one head more than H: those tiles read as pad and write
/// nothing), fill and atomic_add through a view with an extent of the tile's rank, a
/// global-to-global copy between tensors of different rank, and a pipelined gemm whose B
/// operand is a 4-D view loaded by the copy engines. Few cases: the copy cases cover the
/// dtypes' encodings already; these cover the addressing.
#include <cstdint>
#include <string>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

CaseSpec view_case(Generator& g, const std::string& name, const std::string& row, const std::string& kernel,
                   std::vector<TensorSpec> tensors, DType d) {
  CaseSpec c;
  c.name = name;
  c.row = row;
  c.kernel = kernel;
  c.scalars.assign(tensors.size(), 0);
  c.tensors = std::move(tensors);
  c.unsupported = g.needs({d});
  return c;
}

/// Heads of a 4-D tensor through a shared tile (padded: P holds every tile as read, the
/// head past H included) and through a fragment.
void add_heads(Generator& g) {
  struct Shape {
    const char* name;
    int64_t s, d;
  };
  const Shape shapes[] = {{"tail", 37, 64}, {"tail_both", 21, 50}};
  for (DType d : {DType::F32, DType::BF16, DType::I8}) {
    for (const Shape& sh : shapes) {
      if (sh.d != 64 && d != DType::F32) continue;
      std::string t = dt(d);
      std::string pad = literal(d == DType::I8 ? 3 : -2.5, DType::F64);
      std::string k = "kernel copy_view_heads(X: " + t + "[B, H, S, D], Y: " + t + "[B, H, S, D], P: " + t +
                      "[B, H1, S1, 64]) grid(ceildiv(S, 16), H1, B) threads(128) {\n" + "  alloc s: shared " + t +
                      "[16, 64]\n  alloc f: fragment " + t + "[16, 64]\n" +
                      "  copy X[bz, by, bx * 16, 0], s, pad=" + pad + "\n  copy s, P[bz, by, bx * 16, 0]\n" +
                      "  copy X[bz, by, bx * 16, 0], f\n  copy f, Y[bz, by, bx * 16, 0]\n}\n";
      CaseSpec c = view_case(g, std::string("tegula.copy.view.heads.") + t + "." + sh.name, "copy view", k,
                             {input(Values::Bits), output(), output()}, d);
      int64_t s1 = (sh.s + 15) / 16 * 16;
      c.symbols = {{"B", 2}, {"H", 3}, {"S", sh.s}, {"D", sh.d}, {"H1", 4}, {"S1", s1}};
      g.add(std::move(c));
    }
  }
}

/// A 3-D tensor: a fragment view, fill through a view, and a global-to-global copy of one
/// head into a 2-D tensor (the extent written with its leading 1).
void add_rank3(Generator& g) {
  for (DType d : {DType::F16}) {
    std::string t = dt(d);
    std::string k = "kernel copy_view_rank3(X: " + t + "[H, S, D], Y: " + t + "[H, S, D], Z: " + t + "[S, D], W: " + t +
                    "[H, S, D]) grid(ceildiv(S, 16), H + 1) threads(128) {\n" + "  alloc f: fragment " + t +
                    "[16, 64]\n" + "  copy X[by, bx * 16, 0], f\n  copy f, Y[by, bx * 16, 0]\n" +
                    "  fill W[by, bx * 16, 0], 1.5, extent=[16, 64]\n" + "  if by == 1 {\n" +
                    "    copy X[by, bx * 16, 0], Z[bx * 16, 0], extent=[1, 16, 64]\n  }\n}\n";
    CaseSpec c = view_case(g, std::string("tegula.copy.view.rank3.") + t + ".tail", "copy view", k,
                           {input(Values::Bits), output(), output(), output()}, d);
    c.symbols = {{"H", 3}, {"S", 37}, {"D", 64}};
    g.add(std::move(c));
  }
}

/// atomic_add from every batch's head into one 3-D tensor: two blocks add into each
/// element, exactly on the lattice.
void add_atomic(Generator& g) {
  DType d = DType::F32;
  std::string t = dt(d);
  std::string k = "kernel atomic_view(X: " + t + "[B, H, S, 64], Y: " + t +
                  "[H, S, 64]) grid(ceildiv(S, 16), H + 1, B) threads(128) {\n" + "  alloc f: fragment " + t +
                  "[16, 64]\n  copy X[bz, by, bx * 16, 0], f\n  atomic_add f, Y[by, bx * 16, 0]\n}\n";
  CaseSpec c = view_case(g, std::string("tegula.atomic_add.view.") + t, "copy view", k,
                         {input(Values::Lattice), inout(Values::Lattice)}, d);
  c.symbols = {{"B", 2}, {"H", 3}, {"S", 37}};
  g.add(std::move(c));
}

/// Per head, C = Q K^T with K's tiles loaded by a pipelined loop from a 4-D view: the
/// asynchronous copy engines address the view (the bulk engine is not chosen for it).
CaseSpec view_gemm(Generator& g) {
  DType d = DType::BF16;
  std::string k =
      "kernel gemm_view(Q: bf16[B, H, S, 64], K: bf16[B, H, T, 64], C: f32[B, H, S, T]) grid(ceildiv(S, 64), H, B) "
      "threads(128) {\n"
      "  alloc Qs: shared bf16[64, 64]\n  alloc Ks: shared bf16[64, 64]\n  alloc Acc: fragment f32[64, 64]\n"
      "  copy Q[bz, by, bx * 64, 0], Qs\n"
      "  pipelined j in 0 .. ceildiv(T, 64), stages=2 {\n"
      "    copy K[bz, by, j * 64, 0], Ks\n    gemm Qs, Ks, Acc, trans_b=true\n    copy Acc, C[bz, by, bx * 64, j * "
      "64]\n  }\n}\n";
  CaseSpec c = view_case(g, "tegula.gemm.view.pipelined.bf16", "copy view", k,
                         {input(Values::Random), input(Values::Random), output()}, d);
  c.symbols = {{"B", 2}, {"H", 2}, {"S", 70}, {"T", 100}};
  c.check = Check::Accumulate;
  c.accumulator = DType::F32;
  c.operand = d;
  c.depth = 64;
  return c;
}

}  // namespace

void add_view_cases(Generator& g) {
  add_heads(g);
  add_rank3(g);
  add_atomic(g);
  g.add(view_gemm(g));
}

void add_offline_view_cases(Generator& g, const std::string& offline_target) {
  // The addressing is the same for every dtype: one copy case and the pipelined gemm
  // (cp.async from a view) keep the offline run short.
  std::vector<CaseSpec> all;
  Generator inner(g.target(), all);
  add_view_cases(inner);
  for (CaseSpec& c : all) {
    if (!c.unsupported.empty()) continue;
    if (c.name != "tegula.copy.view.heads.bf16.tail" && c.name != "tegula.gemm.view.pipelined.bf16") continue;
    c.offline_target = offline_target;
    g.add(std::move(c));
  }
}

}  // namespace tegula::conformance
