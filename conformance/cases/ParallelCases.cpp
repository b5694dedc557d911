/// \file
/// store and element loads inside parallel loops: a guarded 1-D elementwise loop, a 2-D
/// transpose (scattered stores), per-thread local temporaries, a gather through an index
/// tensor, a shared tile written element by element and then copied out, and a fragment
/// read and stored element by element. Every dtype; the tails are guarded with if.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

/// The dtype a float computation is carried in, for local temporaries.
DType compute_dtype(DType d) {
  if (d == DType::F64) return DType::F64;
  if (dtype_is_float(d)) return DType::F32;
  return d == DType::Bool ? DType::Bool : DType::I32;
}

std::string elementwise(DType d) {
  std::string t = dt(d);
  std::string value = d == DType::Bool ? "!X[g]" : (dtype_is_float(d) ? "X[g] * 2.0 + 1.0" : "X[g] * 2 + 1");
  // g is spelled out: the IR has no let.
  std::string g = "bx * 256 + i";
  std::string v = value;
  for (size_t p; (p = v.find("[g]")) != std::string::npos;) v.replace(p, 3, "[" + g + "]");
  return "kernel par_map(X: " + t + "[N], Y: " + t + "[N]) grid(ceildiv(N, 256)) threads(128) {\n" +
         "  parallel i in 256 {\n    if " + g + " < N {\n      store Y[" + g + "] = " + v + "\n    }\n  }\n}\n";
}

std::string transpose(DType d) {
  std::string t = dt(d);
  return "kernel par_transpose(X: " + t + "[M, N], Y: " + t + "[N, M]) grid(ceildiv(N, 32), ceildiv(M, 16)) threads(128) {\n" +
         "  parallel (i, j) in (16, 32) {\n    if by * 16 + i < M && bx * 32 + j < N {\n" +
         "      store Y[bx * 32 + j, by * 16 + i] = X[by * 16 + i, bx * 32 + j]\n    }\n  }\n}\n";
}

std::string locals(DType d) {
  std::string t = dt(d), c = dt(compute_dtype(d));
  std::string g = "bx * 256 + i";
  std::string second = d == DType::Bool ? "!l[0]" : "l[0] * l[0]";
  std::string result = d == DType::Bool ? "l[1] || l[0]" : "l[1] - l[0]";
  return "kernel par_local(X: " + t + "[N], Y: " + t + "[N]) grid(ceildiv(N, 256)) threads(128) {\n" +
         "  parallel i in 256 {\n    alloc l: local " + c + "[2]\n    if " + g + " < N {\n" +
         "      store l[0] = X[" + g + "]\n      store l[1] = " + second + "\n      store Y[" + g + "] = " + result +
         "\n    }\n  }\n}\n";
}

std::string gather(DType d) {
  std::string t = dt(d);
  std::string g = "bx * 256 + i";
  return "kernel par_gather(X: " + t + "[N], I: i32[N], Y: " + t + "[N]) grid(ceildiv(N, 256)) threads(128) {\n" +
         "  parallel i in 256 {\n    if " + g + " < N {\n      store Y[" + g + "] = X[I[" + g + "]]\n    }\n  }\n}\n";
}

std::string shared_stage(DType d) {
  std::string t = dt(d);
  std::string value = d == DType::Bool ? "!X[by * 16 + i, bx * 64 + j]" : "X[by * 16 + i, bx * 64 + j] + 1";
  return "kernel par_shared(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n" +
         "  alloc s: shared " + t + "[16, 64]\n  parallel (i, j) in (16, 64) {\n" +
         "    if by * 16 + i < M && bx * 64 + j < N {\n      store s[i, j] = " + value + "\n    } else {\n" +
         "      store s[i, j] = 0\n    }\n  }\n  copy s, Y[by * 16, bx * 64]\n}\n";
}

std::string fragment_read(DType d) {
  std::string t = dt(d);
  std::string value = d == DType::Bool ? "!f[15 - i, j]" : "f[15 - i, j] * 3";
  return "kernel par_fragment(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n" +
         "  alloc f: fragment " + t + "[16, 64]\n  copy X[by * 16, bx * 64], f, pad=1\n  parallel (i, j) in (16, 64) {\n" +
         "    if by * 16 + i < M && bx * 64 + j < N {\n      store Y[by * 16 + i, bx * 64 + j] = " + value +
         "\n    }\n  }\n}\n";
}

/// A triangle of the fragment stored by index (another thread's registers), the rest kept
/// from the copy before the loop, then the whole fragment copied out.
std::string fragment_store(DType d) {
  std::string t = dt(d);
  std::string value = d == DType::Bool ? "!X[by * 16 + i, bx * 64 + j]" : "X[by * 16 + i, bx * 64 + j] * 3";
  return "kernel par_fragment_store(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n" +
         "  alloc f: fragment " + t + "[16, 64]\n  copy X[by * 16, bx * 64], f, pad=1\n  parallel (i, j) in (16, 64) {\n" +
         "    if j <= i * 4 && by * 16 + i < M && bx * 64 + j < N {\n      store f[i, j] = " + value +
         "\n    }\n  }\n  copy f, Y[by * 16, bx * 64]\n}\n";
}

}  // namespace

void add_parallel_cases(Generator& g) {
  for (DType d : all_dtypes()) {
    std::string t = dt(d);
    Values v = dtype_is_float(d) ? Values::Lattice : Values::Random;
    auto add = [&](const std::string& pattern, const std::string& kernel, std::vector<std::pair<std::string, int64_t>> symbols,
                   std::vector<TensorSpec> tensors, std::initializer_list<DType> dtypes) {
      CaseSpec c;
      c.name = "tegula.parallel." + pattern + "." + t;
      c.row = "parallel " + pattern;
      c.kernel = kernel;
      c.symbols = std::move(symbols);
      c.tensors = std::move(tensors);
      c.scalars.assign(c.tensors.size(), 0);
      c.unsupported = g.needs(dtypes);
      g.add(std::move(c));
    };
    add("elementwise", elementwise(d), {{"N", 1000}}, {input(v), output()}, {d});
    add("transpose", transpose(d), {{"M", 37}, {"N", 45}}, {input(Values::Bits), output()}, {d});
    add("local", locals(d), {{"N", 777}}, {input(v), output()}, {d, compute_dtype(d)});
    add("gather", gather(d), {{"N", 999}}, {input(Values::Bits), input(Values::Indices, 999), output()}, {d, DType::I32});
    add("shared_stage", shared_stage(d), {{"M", 21}, {"N", 100}}, {input(v), output()}, {d});
    add("fragment_read", fragment_read(d), {{"M", 21}, {"N", 100}}, {input(v), output()}, {d});
    add("fragment_store", fragment_store(d), {{"M", 21}, {"N", 100}}, {input(v), output()}, {d});
  }
}

}  // namespace tegula::conformance
