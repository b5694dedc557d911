/// \file
/// reduce: sum, max, min and absmax over every dtype, along rows (a K loop over column
/// tiles with clear=false, padded past the edge with the reduction's identity) and along
/// columns, and once from a shared tile into a kept dimension. Sums run on the exact
/// lattice (bit-exact whatever the order) and once on random values under the tolerance
/// table; max, min and absmax run on special values (NaN loses to a number, infinities win),
/// and max and min on rows and columns of +0 and -0 (-0 < +0).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

/// The dtype a reduction accumulates into: sums widen (f64 stays, other floats to f32,
/// integers to i32); max, min and absmax keep the source dtype.
DType reduce_dtype(const std::string& op, DType d) {
  if (op != "sum") return d;
  if (d == DType::F64) return DType::F64;
  return dtype_is_float(d) ? DType::F32 : DType::I32;
}

std::string identity(const std::string& op) {
  if (op == "max") return "-inf";
  if (op == "min") return "inf";
  return "0.0";
}

std::string rows_kernel(const std::string& op, DType d, DType o) {
  std::string t = dt(d), ot = dt(o), id = identity(op);
  return "kernel reduce_rows(X: " + t + "[M, N], Y: " + ot + "[M]) grid(ceildiv(M, 8)) threads(128) {\n" +
         "  alloc xs: fragment " + t + "[8, 64]\n  alloc acc: fragment " + ot + "[8]\n  fill acc, " + id + "\n" +
         "  for j in 0 .. ceildiv(N, 64) {\n    copy X[bx * 8, j * 64], xs, pad=" + id + "\n" +
         "    reduce xs, acc, op=" + op + ", axis=1, clear=false\n  }\n  copy acc, Y[bx * 8]\n}\n";
}

std::string cols_kernel(const std::string& op, DType d, DType o) {
  std::string t = dt(d), ot = dt(o), id = identity(op);
  return "kernel reduce_cols(X: " + t + "[M, N], Y: " + ot + "[N]) grid(ceildiv(N, 64)) threads(128) {\n" +
         "  alloc xs: fragment " + t + "[8, 64]\n  alloc acc: fragment " + ot + "[64]\n  fill acc, " + id + "\n" +
         "  for i in 0 .. ceildiv(M, 8) {\n    copy X[i * 8, bx * 64], xs, pad=" + id + "\n" +
         "    reduce xs, acc, op=" + op + ", axis=0, clear=false\n  }\n  copy acc, Y[bx * 64]\n}\n";
}

std::string once_kernel(const std::string& op, DType d, DType o) {
  std::string t = dt(d), ot = dt(o), id = identity(op);
  return "kernel reduce_once(X: " + t + "[M, N], Y: " + ot + "[M, 1]) grid(ceildiv(M, 4)) threads(128) {\n" +
         "  alloc xs: shared " + t + "[4, 256]\n  alloc acc: fragment " + ot + "[4, 1]\n" +
         "  copy X[bx * 4, 0], xs, pad=" + id + "\n  reduce xs, acc, op=" + op + ", axis=1\n  copy acc, Y[bx * 4, 0]\n}\n";
}

struct Shape {
  const char* name;
  int64_t m, n;
  int kind;  ///< 0 rows, 1 columns, 2 once
};

constexpr Shape kShapes[] = {
    {"rows.one", 1, 1, 0},    {"rows.edge", 9, 67, 0},   {"rows.long", 3, 1000, 0},
    {"rows.subgroup", 5, 33, 0}, {"cols.edge", 67, 9, 1}, {"once.edge", 7, 200, 2},
};

}  // namespace

void add_reduce_cases(Generator& g) {
  for (const char* op : {"sum", "max", "min", "absmax"}) {
    for (DType d : all_dtypes()) {
      if (d == DType::Bool) continue;  // the IR does not reduce bools
      // Storage formats (Generator.h): the sum and the max, which meet their edges.
      if (storage_format(d) && std::string(op) != "sum" && std::string(op) != "max") continue;
      DType o = reduce_dtype(op, d);
      bool sum = std::string(op) == "sum";
      Values v = sum ? Values::Lattice : (dtype_is_float(d) ? Values::Special : Values::Random);
      for (const Shape& sh : kShapes) {
        // Storage formats: one row and one column edge shape.
        if (storage_format(d) && std::string(sh.name) != "rows.edge" && std::string(sh.name) != "cols.edge") continue;
        CaseSpec c;
        c.name = std::string("tegula.reduce.") + op + "." + dt(d) + "." + sh.name;
        c.row = std::string("reduce ") + op;
        c.kernel = sh.kind == 0 ? rows_kernel(op, d, o) : sh.kind == 1 ? cols_kernel(op, d, o) : once_kernel(op, d, o);
        c.symbols = {{"M", sh.m}, {"N", sh.n}};
        c.tensors = {input(v), output()};
        c.scalars = {0, 0};
        c.unsupported = g.needs({d, o});
        if (std::string(sh.name) == "rows.edge") {
          CaseSpec m = c;
          m.name = std::string("tegula.reduce.") + op + "." + dt(d) + ".rows.misaligned";
          m.misalign = {1, 1};
          g.add(std::move(m));
        }
        g.add(std::move(c));
      }
      // -0 < +0 (ir/OpList.h): short rows and columns of random zeros, so some are all -0,
      // some all +0 and most mixed.
      if ((op == std::string("max") || op == std::string("min")) && has_negative_zero(d)) {
        for (const Shape& sh : {Shape{"rows.signed_zeros", 64, 3, 0}, Shape{"cols.signed_zeros", 3, 64, 1}}) {
          CaseSpec c;
          c.name = std::string("tegula.reduce.") + op + "." + dt(d) + "." + sh.name;
          c.row = std::string("reduce ") + op;
          c.kernel = sh.kind == 0 ? rows_kernel(op, d, o) : cols_kernel(op, d, o);
          c.symbols = {{"M", sh.m}, {"N", sh.n}};
          c.tensors = {input(Values::SignedZeros), output()};
          c.scalars = {0, 0};
          c.unsupported = g.needs({d, o});
          g.add(std::move(c));
        }
      }
      if (!sum || !dtype_is_float(d)) continue;
      CaseSpec c;
      c.name = std::string("tegula.reduce.sum.") + dt(d) + ".rows.random";
      c.row = "reduce sum";
      c.kernel = rows_kernel(op, d, o);
      c.symbols = {{"M", 9}, {"N", 1000}};
      c.tensors = {input(Values::Random), output()};
      c.scalars = {0, 0};
      c.check = Check::Accumulate;
      c.operand = d;
      c.accumulator = o;
      c.depth = 1000;
      c.unsupported = g.needs({d, o});
      g.add(std::move(c));
    }
  }
}

}  // namespace tegula::conformance
