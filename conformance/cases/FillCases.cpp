/// \file
/// fill: a global tile directly (masked at the edges), and shared and fragment tiles copied
/// out, with lattice values, a uniform expression of the block index, and (into fragments)
/// every special literal: infinities, NaN, -0, the dtype's max, its smallest subnormal, a
/// value that must round (0.1), one that overflows (saturating for fp8 and integers) and a
/// rounding tie.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "conformance/Inputs.h"
#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

struct FillValue {
  std::string name;
  std::string text;  ///< the expression as written
};

std::vector<FillValue> plain_values(DType d) {
  if (d == DType::Bool) return {{"true", "1"}, {"false", "0"}};
  if (dtype_is_int(d)) return {{"lattice", "3"}, {"negative", "-7"}, {"block_index", "bx * 2 + by"}};
  return {{"lattice", "2.5"}, {"negative", "-1.5"}, {"block_index", "bx * 2 + by"}};
}

std::vector<FillValue> special_fill_values(DType d) {
  const double inf = std::numeric_limits<double>::infinity();
  if (d == DType::Bool) return {{"nan", "nan"}, {"round", "0.25"}};
  if (dtype_is_int(d))
    return {{"max", literal(dtype_max(d), d)}, {"min", literal(dtype_lowest(d), d)}, {"overflow", "1.0e10"},
            {"underflow", "-1.0e10"}, {"tie", "2.5"}, {"neg_tie", "-3.5"}, {"nan", "nan"}};
  return {{"inf", literal(inf, d)},         {"neg_inf", literal(-inf, d)}, {"nan", "nan"},
          {"neg_zero", "-0.0"},             {"max", literal(dtype_max(d), DType::F64)},
          {"subnormal", literal(min_subnormal(d), DType::F64)}, {"round", "0.1"}, {"overflow", "1.0e300"}};
}

std::string fill_kernel(const char* scope, DType d, const std::string& value) {
  std::string t = dt(d);
  std::string s = "kernel fill_tile(Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n";
  if (std::string(scope) == "global") return s + "  fill Y[by * 16, bx * 64], " + value + ", extent=[16, 64]\n}\n";
  return s + "  alloc t: " + scope + " " + t + "[16, 64]\n  fill t, " + value + "\n  copy t, Y[by * 16, bx * 64]\n}\n";
}

void add_fill(Generator& g, const char* scope, DType d, const FillValue& v) {
  CaseSpec c;
  c.name = std::string("tegula.fill.") + scope + "." + dt(d) + "." + v.name;
  c.row = std::string("fill ") + scope;
  c.kernel = fill_kernel(scope, d, v.text);
  c.tensors = {output()};
  c.scalars = {0};
  c.symbols = {{"M", 17}, {"N", 67}};
  c.unsupported = g.needs({d});
  g.add(std::move(c));
}

}  // namespace

void add_fill_cases(Generator& g) {
  for (DType d : all_dtypes()) {
    for (const char* scope : {"global", "shared", "fragment"})
      for (const FillValue& v : plain_values(d)) add_fill(g, scope, d, v);
    for (const FillValue& v : special_fill_values(d)) add_fill(g, "fragment", d, v);
  }
}

}  // namespace tegula::conformance
