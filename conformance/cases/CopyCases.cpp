/// \file
/// copy: every pair of scopes a tile can move between (global, shared, fragment), every
/// dtype, and shapes that hit the masked edges of a tensor (one element, exact tiles,
/// sizes that are not a multiple of the tile); reads past the edge with `pad`; a sub-tile
/// at an offset inside shared memory; rank-1 and rank-3 tensors. Values are random bit
/// patterns, so every encoding (NaN payloads, subnormals, -0) must survive bit for bit.
#include <cstdint>
#include <string>
#include <vector>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

constexpr int64_t kTm = 16, kTn = 64;

struct Shape {
  const char* name;
  int64_t m, n;
};

constexpr Shape kShapes[] = {{"one", 1, 1}, {"exact", 2 * kTm, 2 * kTn}, {"edge", 17, 67}};
constexpr Shape kMoreShapes[] = {{"prime", 31, 97}, {"row", 1, 200}, {"column", 50, 1}};

/// The scopes a tile passes through between X and Y; empty: global to global directly.
struct Route {
  const char* name;
  std::vector<const char*> scopes;
};

const std::vector<Route>& routes() {
  static const std::vector<Route> r = {
      {"global_global", {}},
      {"global_shared", {"shared"}},
      {"global_fragment", {"fragment"}},
      {"shared_fragment", {"shared", "fragment"}},
      {"fragment_shared", {"fragment", "shared"}},
      {"shared_shared", {"shared", "shared"}},
      {"fragment_fragment", {"fragment", "fragment"}},
  };
  return r;
}

std::string route_kernel(const Route& r, DType d) {
  std::string t = dt(d);
  std::string s = "kernel copy_tiles(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, " + n(kTn) + "), ceildiv(M, " +
                  n(kTm) + ")) threads(128) {\n";
  std::string at = "[by * " + n(kTm) + ", bx * " + n(kTn) + "]";
  if (r.scopes.empty()) return s + "  copy X" + at + ", Y" + at + ", extent=[16, 64]\n}\n";
  for (size_t i = 0; i < r.scopes.size(); ++i)
    s += "  alloc t" + n(int64_t(i)) + ": " + r.scopes[i] + " " + t + "[" + n(kTm) + ", " + n(kTn) + "]\n";
  s += "  copy X" + at + ", t0\n";
  for (size_t i = 1; i < r.scopes.size(); ++i) s += "  copy t" + n(int64_t(i - 1)) + ", t" + n(int64_t(i)) + "\n";
  s += "  copy t" + n(int64_t(r.scopes.size() - 1)) + ", Y" + at + "\n}\n";
  return s;
}

CaseSpec copy_case(Generator& g, const std::string& name, const std::string& row, const std::string& kernel, DType d) {
  CaseSpec c;
  c.name = name;
  c.row = row;
  c.kernel = kernel;
  c.tensors = {input(Values::Bits), output()};
  c.scalars = {0, 0};
  c.unsupported = g.needs({d});
  return c;
}

void add_routes(Generator& g) {
  for (const Route& r : routes()) {
    for (DType d : all_dtypes()) {
      std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
      if (std::string(r.name) == "global_shared") shapes.insert(shapes.end(), std::begin(kMoreShapes), std::end(kMoreShapes));
      // Storage formats (Generator.h): the edge shape, whose masked tail every route has.
      if (storage_format(d)) shapes = {kShapes[2]};
      for (const Shape& sh : shapes) {
        CaseSpec c = copy_case(g, std::string("tegula.copy.") + r.name + "." + dt(d) + "." + sh.name,
                               std::string("copy ") + r.name, route_kernel(r, d), d);
        c.symbols = {{"M", sh.m}, {"N", sh.n}};
        g.add(std::move(c));
      }
      // Tensor views that start off a 16-byte boundary (no aligned fast path applies).
      if (r.scopes.size() > 1 || storage_format(d)) continue;
      CaseSpec c = copy_case(g, std::string("tegula.copy.") + r.name + "." + dt(d) + ".misaligned", std::string("copy ") + r.name,
                             route_kernel(r, d), d);
      c.symbols = {{"M", 17}, {"N", 67}};
      c.misalign = {1, 3};
      g.add(std::move(c));
    }
  }
}

/// Reads past the tensor's edge give `pad`; the output covers whole tiles, so the padding
/// itself is written out and checked.
void add_pad(Generator& g) {
  for (const char* scope : {"shared", "fragment"}) {
    for (DType d : all_dtypes()) {
      double pad = d == DType::Bool ? 1 : (dtype_is_float(d) ? -2.5 : 3);
      std::string t = dt(d);
      std::string k = "kernel copy_pad(X: " + t + "[M, N], Y: " + t + "[32, 128]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n" +
                      "  alloc t0: " + scope + " " + t + "[16, 64]\n" +
                      "  copy X[by * 16, bx * 64], t0, pad=" + literal(pad, DType::F64) + "\n" +
                      "  copy t0, Y[by * 16, bx * 64]\n}\n";
      CaseSpec c = copy_case(g, std::string("tegula.copy.pad.") + scope + "." + t, "copy pad", k, d);
      c.symbols = {{"M", 17}, {"N", 67}};
      g.add(std::move(c));
    }
  }
  // pad=-inf (what a max reduction pads with) into every float dtype.
  for (DType d : float_dtypes()) {
    std::string t = dt(d);
    std::string k = "kernel copy_pad(X: " + t + "[M, N], Y: " + t + "[32, 128]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n" +
                    "  alloc t0: fragment " + t + "[16, 64]\n  copy X[by * 16, bx * 64], t0, pad=-inf\n" +
                    "  copy t0, Y[by * 16, bx * 64]\n}\n";
    CaseSpec c = copy_case(g, std::string("tegula.copy.pad.neg_inf.") + t, "copy pad", k, d);
    c.symbols = {{"M", 17}, {"N", 67}};
    g.add(std::move(c));
  }
}

/// A tile at an offset inside a larger shared buffer, moved with an explicit extent.
void add_offsets(Generator& g) {
  for (DType d : {DType::F32, DType::F16, DType::I8}) {
    std::string t = dt(d);
    std::string k = "kernel copy_offset(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 32)) threads(128) {\n" +
                    "  alloc s: shared " + t + "[32, 64]\n  copy X[by * 32, bx * 64], s\n" +
                    "  copy s[16, 0], Y[by * 32, bx * 64], extent=[16, 64]\n" +
                    "  copy s[0, 0], Y[by * 32 + 16, bx * 64], extent=[16, 64]\n}\n";
    CaseSpec c = copy_case(g, std::string("tegula.copy.shared_offset.") + t + ".edge", "copy shared offset", k, d);
    c.symbols = {{"M", 45}, {"N", 67}};
    g.add(std::move(c));
  }
}

void add_ranks(Generator& g) {
  for (DType d : {DType::F32, DType::F16, DType::I8}) {
    std::string t = dt(d);
    std::string k1 = "kernel copy_rank1(X: " + t + "[N], Y: " + t + "[N]) grid(ceildiv(N, 256)) threads(128) {\n" +
                     "  alloc s: shared " + t + "[256]\n  copy X[bx * 256], s\n  copy s, Y[bx * 256]\n}\n";
    CaseSpec c1 = copy_case(g, std::string("tegula.copy.rank1.") + t + ".edge", "copy rank 1 and 3", k1, d);
    c1.symbols = {{"N", 1000}};
    g.add(std::move(c1));
    // A length that is no multiple of any vector: the last tile's vectors would straddle the
    // tensor's end (a 1-D tensor is one row; lowering must not vectorise past it).
    std::string kt1 = "kernel copy_rank1_tail(X: " + t + "[N], Y: " + t + "[N]) grid(ceildiv(N, 256)) threads(128) {\n" +
                      "  alloc s: shared " + t + "[256]\n  fill s, 1\n  copy X[bx * 256], s, pad=0\n  copy s, Y[bx * 256]\n}\n";
    CaseSpec ct = copy_case(g, std::string("tegula.copy.rank1.") + t + ".tail", "copy rank 1 and 3", kt1, d);
    ct.symbols = {{"N", 1001}};
    g.add(std::move(ct));
    std::string k3 = "kernel copy_rank3(X: " + t + "[B, M, N], Y: " + t +
                     "[B, M, N]) grid(ceildiv(N, 32), ceildiv(M, 8), ceildiv(B, 2)) threads(128) {\n" + "  alloc f: fragment " + t +
                     "[2, 8, 32]\n  copy X[bz * 2, by * 8, bx * 32], f\n  copy f, Y[bz * 2, by * 8, bx * 32]\n}\n";
    CaseSpec c3 = copy_case(g, std::string("tegula.copy.rank3.") + t + ".edge", "copy rank 1 and 3", k3, d);
    c3.symbols = {{"B", 3}, {"M", 13}, {"N", 45}};
    g.add(std::move(c3));
  }
}

}  // namespace

void add_copy_cases(Generator& g) {
  add_routes(g);
  add_pad(g);
  add_offsets(g);
  add_ranks(g);
}

/// Conversions on copy: every ordered pair of distinct dtypes, on special values (the
/// rounding, saturation and NaN rules of core/DType.h).
void add_convert_cases(Generator& g) {
  for (DType from : all_dtypes()) {
    for (DType to : all_dtypes()) {
      if (from == to || !tested_conversion(from, to)) continue;
      std::string f = dt(from), t = dt(to);
      std::string k = "kernel copy_convert(X: " + f + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n" +
                      "  alloc c: fragment " + t + "[16, 64]\n  copy X[by * 16, bx * 64], c\n  copy c, Y[by * 16, bx * 64]\n}\n";
      CaseSpec c;
      c.name = "tegula.copy.convert." + f + "_" + t;
      c.row = "copy convert";
      c.kernel = k;
      c.tensors = {input(Values::Special), output()};
      c.scalars = {0, 0};
      c.symbols = {{"M", 17}, {"N", 67}};
      c.unsupported = g.needs({from, to});
      g.add(std::move(c));
    }
  }
}

}  // namespace tegula::conformance
