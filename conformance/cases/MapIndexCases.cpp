/// \file
/// map with element indices (idx, ir/OpList.h): a causal mask (the tile's global row and
/// column compared) over every dtype, into a fragment or a shared tile, read from a
/// fragment or a shared tile; tiles whose edges are tails of the tensor, one element, prime
/// extents, rank 1 (a sequence tail) and rank 3 (a triangular mask per batch). The masked
/// value is a special value or the index arithmetic itself, so an element whose index a
/// backend gets wrong is masked, or valued, wrongly and compared exactly. Gemm
/// accumulators with a causal mask are in GemmCases.cpp (`.causal`).
#include <string>
#include <vector>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

struct Tile2 {
  const char* name;
  int64_t tm, tn, M, N;
};

/// The causal mask of a tile at (by * tm, bx * tn) in dtype d: above the diagonal a special
/// value (floats), the index difference (integers), false (bool).
std::string causal_expr(DType d, int64_t tm, int64_t tn) {
  std::string row = "by * " + n(tm) + " + idx(0)", col = "bx * " + n(tn) + " + idx(1)";
  if (d == DType::Bool) return "x && " + col + " <= " + row;
  if (dtype_is_int(d)) return "select(" + col + " > " + row + ", idx(0) - idx(1), x)";
  return "select(" + col + " > " + row + ", -inf, x)";
}

std::string tile_kernel(DType d, const char* x_scope, const char* z_scope, const Tile2& t) {
  std::string ty = dt(d), tile = dims({n(t.tm), n(t.tn)}), at = "[by * " + n(t.tm) + ", bx * " + n(t.tn) + "]";
  return "kernel map_index(X: " + ty + "[M, N], Z: " + ty + "[M, N]) grid(ceildiv(N, " + n(t.tn) + "), ceildiv(M, " +
         n(t.tm) + ")) threads(128) {\n  alloc x: " + x_scope + " " + ty + tile + "\n  alloc z: " + z_scope + " " + ty +
         tile + "\n  copy X" + at + ", x\n  map z = " + causal_expr(d, t.tm, t.tn) + "\n  copy z, Z" + at + "\n}\n";
}

CaseSpec index_case(Generator& g, const std::string& name, const std::string& row, const std::string& kernel,
                    std::vector<std::pair<std::string, int64_t>> symbols, DType d) {
  CaseSpec c;
  c.name = name;
  c.row = row;
  c.kernel = kernel;
  c.tensors = {input(Values::Random), output()};
  c.scalars = {0, 0};
  c.symbols = std::move(symbols);
  c.unsupported = g.needs({d});
  return c;
}

void add_causal(Generator& g) {
  struct Scopes {
    const char* name;
    const char* x;
    const char* z;
  };
  const Scopes scopes[] = {
      {"fragment", "fragment", "fragment"}, {"to_shared", "fragment", "shared"}, {"shared", "shared", "shared"}};
  const Tile2 tiles[] = {{"tail", 16, 64, 33, 130}, {"one", 1, 1, 1, 1}, {"prime", 7, 13, 29, 31}};
  for (DType d : all_dtypes()) {
    for (const Scopes& s : scopes) {
      for (const Tile2& t : tiles) {
        // Every dtype on the ordinary tile; the edge shapes on one float and one integer dtype.
        if (std::string(t.name) != "tail" && d != DType::F32 && d != DType::I32) continue;
        std::string name = std::string("tegula.map.index.causal.") + dt(d) + "." + s.name + "." + t.name;
        g.add(index_case(g, name, "map idx", tile_kernel(d, s.x, s.z, t), {{"M", t.M}, {"N", t.N}}, d));
      }
    }
  }
}

/// A sequence tail (rank 1): elements at or past L - 3 are replaced by the global index.
void add_rank1(Generator& g) {
  for (DType d : {DType::F32, DType::I32, DType::F16}) {
    std::string ty = dt(d);
    std::string k = "kernel map_index_1d(X: " + ty + "[L], Z: " + ty +
                    "[L]) grid(ceildiv(L, 96)) threads(64) {\n  alloc x: fragment " + ty +
                    "[96]\n  copy X[bx * 96], x\n  map x = select(bx * 96 + idx(0) < L - 3, x, bx * 96 + idx(0))\n  "
                    "copy x, Z[bx * 96]\n}\n";
    g.add(index_case(g, std::string("tegula.map.index.tail_1d.") + ty, "map idx", k, {{"L", 197}}, d));
  }
}

/// A triangular mask per batch (rank 3), as a state-space scan's decay matrix needs: row
/// idx(1) keeps the columns idx(2) <= idx(1), plus the batch index in the value.
void add_rank3(Generator& g) {
  for (DType d : {DType::F32, DType::BF16}) {
    std::string ty = dt(d);
    std::string k =
        "kernel map_index_3d(X: " + ty + "[B, S, S], Z: " + ty +
        "[B, S, S]) grid(1, 1, ceildiv(B, 2)) threads(128) {\n"
        "  alloc x: fragment " +
        ty + "[2, 8, 8]\n  alloc z: shared " + ty +
        "[2, 8, 8]\n  copy X[bz * 2, 0, 0], x\n"
        "  map z = select(idx(2) <= idx(1), x, cast<f32>(bz * 2 + idx(0)) * 0.5)\n  copy z, Z[bz * 2, 0, 0]\n}\n";
    g.add(index_case(g, std::string("tegula.map.index.triangular_3d.") + ty, "map idx", k, {{"B", 5}, {"S", 7}}, d));
  }
}

}  // namespace

void add_map_index_cases(Generator& g) {
  add_causal(g);
  add_rank1(g);
  add_rank3(g);
}

}  // namespace tegula::conformance
