/// \file
/// scan: sum, max and min over every float dtype, chunked the way kernels use it (a loop
/// over tiles of the line, the running value carried from one tile to the next in the
/// scan's carry, the tail padded with the op's identity), along rows and along columns,
/// forward and reverse, inclusive and exclusive, at edge shapes (one element, primes,
/// tails, a 1-D vector, a line longer than any tile). Sums run on the exact lattice
/// (bit-exact whatever the order or width of the running value) and once on random values
/// under the tolerance table; max and min run on special values (NaN loses to a number,
/// infinities win) and on +0/-0 (-0 < +0). The carry (the lines' totals) is an output too.
#include <cstdint>
#include <string>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

/// The carry's dtype: sums keep their running value in f32 (f64 for f64); max and min
/// keep the source dtype (every value they produce is a source value or the start).
DType carry_dtype(const std::string& op, DType d) {
  if (op != "sum" || d == DType::F64) return d;
  return DType::F32;
}

std::string identity(const std::string& op) {
  if (op == "max") return "-inf";
  if (op == "min") return "inf";
  return "0.0";
}

struct Mode {
  const char* name;
  bool reverse, exclusive;
};

std::string mode_attrs(const Mode& m) {
  return std::string(m.reverse ? ", reverse=true" : "") + (m.exclusive ? ", exclusive=true" : "");
}

/// Lines along the last axis, 8 rows a block, tiles of 32 columns; a reverse scan walks
/// the tiles from the last.
std::string rows_kernel(const std::string& op, DType d, DType c, const Mode& m) {
  std::string t = dt(d), ct = dt(c), id = identity(op);
  std::string tile = m.reverse ? "(ceildiv(N, 32) - 1 - j)" : "j";
  return "kernel scan_rows(X: " + t + "[M, N], Y: " + t + "[M, N], C: " + ct + "[M, 1]) grid(ceildiv(M, 8)) threads(64) {\n" +
         "  alloc xs: shared " + t + "[8, 32]\n  alloc ys: shared " + t + "[8, 32]\n  alloc run: shared " + ct + "[8, 1]\n" +
         "  fill run, " + id + "\n  for j in 0 .. ceildiv(N, 32) {\n    copy X[bx * 8, " + tile + " * 32], xs, pad=" + id + "\n" +
         "    scan xs, ys, run, op=" + op + ", axis=1" + mode_attrs(m) + "\n    copy ys, Y[bx * 8, " + tile + " * 32]\n  }\n" +
         "  copy run, C[bx * 8, 0]\n}\n";
}

/// Lines along axis 0, 64 columns a block, tiles of 8 rows.
std::string cols_kernel(const std::string& op, DType d, DType c, const Mode& m) {
  std::string t = dt(d), ct = dt(c), id = identity(op);
  std::string tile = m.reverse ? "(ceildiv(M, 8) - 1 - i)" : "i";
  return "kernel scan_cols(X: " + t + "[M, N], Y: " + t + "[M, N], C: " + ct + "[1, N]) grid(ceildiv(N, 64)) threads(32) {\n" +
         "  alloc xs: shared " + t + "[8, 64]\n  alloc ys: shared " + t + "[8, 64]\n  alloc run: shared " + ct + "[1, 64]\n" +
         "  fill run, " + id + "\n  for i in 0 .. ceildiv(M, 8) {\n    copy X[" + tile + " * 8, bx * 64], xs, pad=" + id + "\n" +
         "    scan xs, ys, run, op=" + op + ", axis=0" + mode_attrs(m) + "\n    copy ys, Y[" + tile + " * 8, bx * 64]\n  }\n" +
         "  copy run, C[0, bx * 64]\n}\n";
}

/// One 1-D line in tiles of 48 (not a power of two): one thread walks it. Its length is a
/// prime (a tail tile of 19), so no vector fits the tensor's end (tegula.copy.rank1.*.tail
/// is the copy's own case of that).
std::string vector_kernel(const std::string& op, DType d, DType c, const Mode& m) {
  std::string t = dt(d), ct = dt(c), id = identity(op);
  std::string tile = m.reverse ? "(ceildiv(N, 48) - 1 - j)" : "j";
  return "kernel scan_vector(X: " + t + "[N], Y: " + t + "[N], C: " + ct + "[1]) grid(1) threads(32) {\n" +
         "  alloc xs: shared " + t + "[48]\n  alloc ys: shared " + t + "[48]\n  alloc run: shared " + ct + "[1]\n" +
         "  fill run, " + id + "\n  for j in 0 .. ceildiv(N, 48) {\n    copy X[" + tile + " * 48], xs, pad=" + id + "\n" +
         "    scan xs, ys, run, op=" + op + ", axis=0" + mode_attrs(m) + "\n    copy ys, Y[" + tile + " * 48]\n  }\n" +
         "  copy run, C\n}\n";
}

struct Shape {
  const char* name;
  int64_t m, n;
  int kind;  ///< 0 rows, 1 columns, 2 a vector (n elements)
  int64_t depth;  ///< elements per line
};

constexpr Shape kEdge[] = {{"rows.edge", 9, 67, 0, 67}, {"cols.edge", 67, 9, 1, 67}};
constexpr Shape kMore[] = {{"rows.one", 1, 1, 0, 1}, {"rows.prime", 5, 131, 0, 131}, {"rows.long", 3, 1000, 0, 1000},
                           {"vector.tail", 1, 211, 2, 211}, {"cols.prime", 131, 70, 1, 131}};
constexpr Mode kModes[] = {{"inclusive", false, false}, {"reverse", true, false}, {"exclusive", false, true},
                           {"reverse_exclusive", true, true}};

std::string kernel_for(const std::string& op, DType d, DType c, const Mode& m, const Shape& sh) {
  if (sh.kind == 0) return rows_kernel(op, d, c, m);
  if (sh.kind == 1) return cols_kernel(op, d, c, m);
  return vector_kernel(op, d, c, m);
}

CaseSpec scan_case(Generator& g, const std::string& op, DType d, const Mode& m, const Shape& sh, Values v) {
  DType c = carry_dtype(op, d);
  CaseSpec s;
  s.name = "tegula.scan." + op + "." + dt(d) + "." + sh.name + "." + m.name;
  s.row = "scan " + op;
  s.kernel = kernel_for(op, d, c, m, sh);
  if (sh.kind == 2) s.symbols = {{"N", sh.n}};
  else s.symbols = {{"M", sh.m}, {"N", sh.n}};
  s.tensors = {input(v), output(), output()};
  s.scalars = {0, 0, 0};
  s.unsupported = g.needs({d, c});
  return s;
}

}  // namespace

void add_scan_cases(Generator& g) {
  for (const char* op : {"sum", "max", "min"}) {
    bool sum = std::string(op) == "sum";
    Values v = sum ? Values::Lattice : Values::Special;
    for (DType d : float_dtypes()) {
      if (storage_format(d)) continue;  // a scan's running value is f32: reductions cover their stores
      // Every mode along rows, two along columns, for every dtype (the suite runs in CI on
      // three devices: the other combinations add no code path).
      for (const Mode& m : kModes) g.add(scan_case(g, op, d, m, kEdge[0], v));
      for (const Mode& m : {kModes[0], kModes[3]}) g.add(scan_case(g, op, d, m, kEdge[1], v));
      // The other edge shapes forward and reverse-exclusive for f32.
      if (d == DType::F32)
        for (const Mode& m : {kModes[0], kModes[3]})
          for (const Shape& sh : kMore) g.add(scan_case(g, op, d, m, sh, v));
      if (!sum && d == DType::F32) {
        // -0 < +0 (ir/OpList.h), inclusive and exclusive.
        for (const Mode& m : {kModes[0], kModes[2]}) {
          CaseSpec c = scan_case(g, op, d, m, kEdge[0], Values::SignedZeros);
          c.name = std::string("tegula.scan.") + op + "." + dt(d) + ".rows.signed_zeros." + m.name;
          g.add(std::move(c));
        }
      }
      if (!sum) continue;
      // Random values: the running value's rounding, bounded by the tolerance table as a
      // sum of `depth` terms in the carry's dtype.
      for (const Shape& sh : {kMore[2]}) {
        CaseSpec c = scan_case(g, op, d, kModes[0], sh, Values::Random);
        c.name = std::string("tegula.scan.sum.") + dt(d) + "." + sh.name + ".random";
        c.check = Check::Accumulate;
        c.operand = d;
        c.accumulator = carry_dtype(op, d);
        c.depth = sh.depth;
        g.add(std::move(c));
      }
    }
  }
}

}  // namespace tegula::conformance
