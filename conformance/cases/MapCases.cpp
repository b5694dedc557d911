/// \file
/// map: every elementwise function (unary, binary, comparisons, logic, bit operators, select,
/// cast, bitcast: every operator of the op list, as
/// conformance/tests/map_cases_cover_operators_test.cpp checks) over every dtype it applies
/// to, on random values (every bit pattern for the bit operators and bitcast), on special
/// values (every pair of specials meets in binary functions), and with broadcasting of a
/// [M, 1], [1, N] or [1, 1] operand and of a lower-rank [N] one (aligned at the trailing axes);
/// a float and an integer scalar parameter; and one fused expression. Arithmetic the
/// reference computes exactly once rounded (add, sub, mul, max, min, neg, abs, compares,
/// select, cast, integer ops) must match bit for bit; the rest follow the ulp table.
#include <string>
#include <vector>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

enum Applies : unsigned { kFloat = 1, kInt = 2, kBool = 4 };

struct Function {
  const char* name;
  const char* expr;  ///< over x (and y)
  int arity;
  unsigned applies;
  const char* ulp;  ///< tolerance table entry, or nullptr for exact
  Values values;    ///< the ordinary (non-special) values for floats
  bool bool_result = false;
};

const std::vector<Function>& functions() {
  static const std::vector<Function> f = {
      {"neg", "-x", 1, kFloat | kInt, nullptr, Values::Random},
      {"abs", "abs(x)", 1, kFloat | kInt, nullptr, Values::Random},
      {"exp", "exp(x)", 1, kFloat, "exp", Values::Random},
      {"exp2", "exp2(x)", 1, kFloat, "exp2", Values::Random},
      {"log", "log(x)", 1, kFloat, "log", Values::Positive},
      {"sqrt", "sqrt(x)", 1, kFloat, "sqrt", Values::Positive},
      {"rsqrt", "rsqrt(x)", 1, kFloat, "rsqrt", Values::Positive},
      {"tanh", "tanh(x)", 1, kFloat, "tanh", Values::Random},
      {"log2", "log2(x)", 1, kFloat, "log2", Values::Positive},
      {"log1p", "log1p(x)", 1, kFloat, "log1p", Values::Random},
      {"erf", "erf(x)", 1, kFloat, "erf", Values::Random},
      {"sigmoid", "sigmoid(x)", 1, kFloat, "sigmoid", Values::Random},
      // Bit operators on every integer dtype, over all bit patterns: shift counts of every
      // value, negative ones and those past 31 included (ir/OpList.h).
      {"bitand", "x & y", 2, kInt, nullptr, Values::Bits},
      {"bitor", "x | y", 2, kInt, nullptr, Values::Bits},
      {"bitxor", "x ^ y", 2, kInt, nullptr, Values::Bits},
      {"bitnot", "~x", 1, kInt, nullptr, Values::Bits},
      {"shl", "x << y", 2, kInt, nullptr, Values::Bits},
      {"shr", "x >> y", 2, kInt, nullptr, Values::Bits},
      {"shr_logical", "x >>> y", 2, kInt, nullptr, Values::Bits},
      {"unpack_nibble", "(x >>> 4 * (y & 7)) & 15", 2, kInt, nullptr, Values::Bits},
      {"add", "x + y", 2, kFloat | kInt, nullptr, Values::Random},
      {"sub", "x - y", 2, kFloat | kInt, nullptr, Values::Random},
      {"mul", "x * y", 2, kFloat | kInt, nullptr, Values::Random},
      {"div", "x / y", 2, kFloat | kInt, "div", Values::NonZero},
      {"mod", "x % y", 2, kInt, nullptr, Values::NonZero},
      {"ceildiv", "ceildiv(x, y)", 2, kInt, nullptr, Values::NonZero},
      {"max", "max(x, y)", 2, kFloat | kInt, nullptr, Values::Random},
      {"min", "min(x, y)", 2, kFloat | kInt, nullptr, Values::Random},
      {"eq", "x == y", 2, kFloat | kInt, nullptr, Values::Lattice, true},
      {"ne", "x != y", 2, kFloat | kInt, nullptr, Values::Lattice, true},
      {"lt", "x < y", 2, kFloat | kInt, nullptr, Values::Lattice, true},
      {"le", "x <= y", 2, kFloat | kInt, nullptr, Values::Lattice, true},
      {"gt", "x > y", 2, kFloat | kInt, nullptr, Values::Lattice, true},
      {"ge", "x >= y", 2, kFloat | kInt, nullptr, Values::Lattice, true},
      {"select", "select(x < y, y, x)", 2, kFloat | kInt, nullptr, Values::Random},
      {"and", "x && y", 2, kBool, nullptr, Values::Random, true},
      {"or", "x || y", 2, kBool, nullptr, Values::Random, true},
      {"not", "!x", 1, kBool, nullptr, Values::Random, true},
      {"select", "select(x, y, !y)", 2, kBool, nullptr, Values::Random, true},
  };
  return f;
}

unsigned kind_of(DType d) { return d == DType::Bool ? kBool : dtype_is_int(d) ? kInt : kFloat; }

std::string map_kernel(DType d, DType o, int arity, const std::string& expr, const std::string& y_shape = "[M, N]",
                       const std::string& y_tile = "[16, 64]", const std::string& y_at = "[by * 16, bx * 64]",
                       const std::string& extra_params = "", const std::string& y_pad = "") {
  std::string t = dt(d), ot = dt(o);
  std::string s = "kernel map_tile(X: " + t + "[M, N], " + (arity == 2 ? "Y: " + t + y_shape + ", " : std::string()) + "Z: " + ot +
                  "[M, N]" + extra_params + ") grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n";
  s += "  alloc x: fragment " + t + "[16, 64]\n";
  if (arity == 2) s += "  alloc y: fragment " + t + y_tile + "\n";
  s += "  alloc z: fragment " + ot + "[16, 64]\n  copy X[by * 16, bx * 64], x\n";
  if (arity == 2) s += "  copy Y" + y_at + ", y" + (y_pad.empty() ? "" : ", pad=" + y_pad) + "\n";
  return s + "  map z = " + expr + "\n  copy z, Z[by * 16, bx * 64]\n}\n";
}

CaseSpec map_case(Generator& g, const std::string& name, const std::string& row, const std::string& kernel, int arity, Values vx,
                  Values vy, std::initializer_list<DType> dtypes) {
  CaseSpec c;
  c.name = name;
  c.row = row;
  c.kernel = kernel;
  c.tensors = {input(vx)};
  if (arity == 2) c.tensors.push_back(input(vy));
  c.tensors.push_back(output());
  c.scalars.assign(c.tensors.size(), 0);
  c.symbols = {{"M", 33}, {"N", 130}};
  c.unsupported = g.needs(dtypes);
  return c;
}

void add_functions(Generator& g) {
  for (const Function& f : functions()) {
    // Storage formats (Generator.h): the functions whose results land on their edges.
    std::string fname = f.name;
    bool storage_function = fname == "add" || fname == "mul" || fname == "max" || fname == "min" || fname == "neg" || fname == "abs";
    for (DType d : all_dtypes()) {
      if (!(f.applies & kind_of(d))) continue;
      if (storage_format(d) && !storage_function) continue;
      DType o = f.bool_result ? DType::Bool : d;
      std::string row = std::string("map ") + f.name;
      std::string prefix = std::string("tegula.map.") + f.name + "." + dt(d);
      // Divisors read past the edge as 1, not 0: the tile is divided whole.
      bool divides = std::string(f.name) == "div" || std::string(f.name) == "mod" || std::string(f.name) == "ceildiv";
      std::string kernel = map_kernel(d, o, f.arity, f.expr, "[M, N]", "[16, 64]", "[by * 16, bx * 64]", "", divides ? "1" : "");
      bool is_float = dtype_is_float(d);
      // Ordinary values. Integer division needs a divisor that is never zero.
      Values vx = is_float ? f.values : (f.values == Values::NonZero || f.values == Values::Positive ? Values::Random : f.values);
      Values vy = f.values == Values::NonZero ? Values::NonZero : vx;
      if (!is_float && f.values == Values::Lattice) vx = vy = Values::Lattice;
      const char* suffix = f.values == Values::Lattice ? ".lattice" : f.values == Values::Bits ? ".bits" : ".random";
      CaseSpec c = map_case(g, prefix + suffix, row, kernel, f.arity, vx, vy, {d, o});
      if (f.ulp && is_float) {
        c.check = Check::Ulp;
        c.function = f.ulp;
      }
      g.add(c);
      if (std::string(f.name) == "add") {
        CaseSpec m = c;
        m.name = prefix + ".misaligned";
        m.misalign = {1, 2, 3};
        g.add(std::move(m));
      }
      // Special values, every pair of them; integer division and modulo would divide by 0.
      if (d == DType::Bool || (!is_float && f.values == Values::NonZero)) continue;
      CaseSpec s = map_case(g, prefix + ".special", row, kernel, f.arity, Values::Special, Values::Special, {d, o});
      s.symbols = {{"M", 64}, {"N", 192}};
      s.check = c.check;
      s.function = c.function;
      g.add(std::move(s));
      // -0 < +0 (ir/OpList.h): every order of a pair of zeros, many times over.
      bool max_min = std::string(f.name) == "max" || std::string(f.name) == "min";
      if (!max_min || !has_negative_zero(d)) continue;
      CaseSpec z = map_case(g, prefix + ".signed_zeros", row, kernel, f.arity, Values::SignedZeros, Values::SignedZeros, {d, o});
      g.add(std::move(z));
    }
  }
}

/// bitcast between same-size dtypes over every bit pattern and the special values: NaN
/// canonical, infinities, subnormal and -0 patterns kept, bytes reinterpreted both ways.
void add_bitcasts(Generator& g) {
  const std::pair<DType, DType> pairs[] = {{DType::I32, DType::F32}, {DType::F32, DType::I32}, {DType::U8, DType::E4M3},
                                           {DType::E4M3, DType::U8}, {DType::I8, DType::U8},   {DType::U8, DType::I8},
                                           {DType::E5M2, DType::I8}, {DType::I8, DType::E5M2}, {DType::F16, DType::BF16},
                                           {DType::BF16, DType::F16}, {DType::F64, DType::F64}};
  for (auto [from, to] : pairs) {
    std::string prefix = std::string("tegula.map.bitcast.") + dt(from) + "_to_" + dt(to);
    std::string kernel = map_kernel(from, to, 1, std::string("bitcast<") + dt(to) + ">(x)");
    g.add(map_case(g, prefix + ".bits", "map bitcast", kernel, 1, Values::Bits, Values::Bits, {from, to}));
    CaseSpec s = map_case(g, prefix + ".special", "map bitcast", kernel, 1, Values::Special, Values::Special, {from, to});
    s.symbols = {{"M", 64}, {"N", 192}};
    g.add(std::move(s));
  }
}

/// y broadcast along rows, columns or both.
void add_broadcasts(Generator& g) {
  struct B {
    const char* name;
    const char* shape;
    const char* tile;
    const char* at;
  };
  const B kinds[] = {{"row", "[M, 1]", "[16, 1]", "[by * 16, 0]"},
                     {"column", "[1, N]", "[1, 64]", "[0, bx * 64]"},
                     {"scalar", "[1, 1]", "[1, 1]", "[0, 0]"}};
  for (DType d : all_dtypes()) {
    if (d == DType::Bool || storage_format(d)) continue;
    for (const B& b : kinds) {
      std::string k = map_kernel(d, d, 2, "x * y", b.shape, b.tile, b.at);
      CaseSpec c = map_case(g, std::string("tegula.map.broadcast.") + dt(d) + "." + b.name, "map broadcast", k, 2, Values::Lattice,
                            Values::Lattice, {d});
      g.add(std::move(c));
    }
  }
}

/// A 1-D y of a row's length broadcasts along the rows (shapes aligned at the trailing
/// axes, numpy's rule), from a fragment (three dtypes) and from shared memory.
void add_rank_broadcasts(Generator& g) {
  for (DType d : {DType::F32, DType::BF16, DType::I8}) {
    std::string k = map_kernel(d, d, 2, "x * y", "[N]", "[64]", "[bx * 64]");
    g.add(map_case(g, std::string("tegula.map.broadcast.") + dt(d) + ".vector", "map broadcast", k, 2, Values::Lattice,
                   Values::Lattice, {d}));
    if (d != DType::F32) continue;
    std::string shared = k;
    shared.replace(shared.find("alloc y: fragment"), 17, "alloc y: shared");
    g.add(map_case(g, std::string("tegula.map.broadcast.") + dt(d) + ".vector_shared", "map broadcast", shared, 2,
                   Values::Lattice, Values::Lattice, {d}));
  }
}

/// Scalar parameters: a float one into a float map, an integer one into an integer map.
void add_scalars(Generator& g) {
  for (DType d : all_dtypes()) {
    if (d == DType::Bool) continue;
    bool is_float = dtype_is_float(d);
    std::string k = map_kernel(d, d, 1, is_float ? "x * s" : "x + s", "", "", "", is_float ? ", s: f32" : ", s: i32");
    CaseSpec c = map_case(g, std::string("tegula.map.scalar_param.") + dt(d), "map scalar parameter", k, 1, Values::Random,
                          Values::Random, {d});
    c.tensors.push_back(scalar());
    c.scalars = {0, 0, is_float ? 2.5 : 7};
    g.add(std::move(c));
  }
}

/// silu(x) * y: several roundings in a row, under the "fused" ulp limit.
void add_fused(Generator& g) {
  for (DType d : float_dtypes()) {
    if (storage_format(d)) continue;
    std::string k = map_kernel(d, d, 2, "x / (1.0 + exp(-x)) * y");
    CaseSpec c = map_case(g, std::string("tegula.map.fused.silu_mul.") + dt(d), "map fused", k, 2, Values::Random, Values::Random, {d});
    c.check = Check::Ulp;
    c.function = "fused";
    g.add(std::move(c));
  }
}

/// cast<to>(x) for every ordered pair, stored into f32 (f64 for to = f64), which holds every
/// value of the narrower dtypes, so what is checked is the cast's own rounding.
void add_casts(Generator& g) {
  for (DType from : all_dtypes()) {
    for (DType to : all_dtypes()) {
      if (!tested_conversion(from, to)) continue;
      DType o = to == DType::F64 ? DType::F64 : (to == DType::Bool ? DType::Bool : DType::F32);
      std::string k = map_kernel(from, o, 1, std::string("cast<") + dt(to) + ">(x)");
      CaseSpec c = map_case(g, std::string("tegula.map.cast.") + dt(from) + "_" + dt(to), "map cast", k, 1, Values::Special,
                            Values::Special, {from, to, o});
      g.add(std::move(c));
    }
  }
}

}  // namespace

void add_map_cases(Generator& g) {
  add_functions(g);
  add_bitcasts(g);
  add_broadcasts(g);
  add_rank_broadcasts(g);
  add_scalars(g);
  add_fused(g);
  add_casts(g);
  add_map_index_cases(g);
}

}  // namespace tegula::conformance
