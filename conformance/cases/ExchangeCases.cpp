/// \file
/// Fragments that change layout on the way (the lowering's exchange_fragments pass): two
/// gemms chained through registers, attention's shape (S = Q K^T in f32, P = S - rowmax(S)
/// rounded to f16, O = P V), and a map into a shared tile that reads a row maximum held in
/// a fragment (a broadcast no fragment layout matches). Inputs from the small lattice keep
/// every partial sum and P exact, so the check is bit for bit whatever the summation order.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

std::string chained_gemms(DType p) {
  std::string t = dt(p);
  return "kernel xchg_chained(Q: " + t + "[M, D], K: " + t + "[D, N], V: " + t + "[N, D], O: f32[M, D]) grid(ceildiv(M, 32)) threads(128) {\n"
         "  alloc Qs: shared " + t + "[32, 64]\n  alloc Ks: shared " + t + "[64, 32]\n  alloc Vs: shared " + t + "[32, 64]\n"
         "  alloc S: fragment f32[32, 32]\n  alloc P: fragment " + t + "[32, 32]\n  alloc Mx: fragment f32[32, 1]\n"
         "  alloc Acc: fragment f32[32, 64]\n  fill Acc, 0.0\n"
         "  for j in 0 .. ceildiv(N, 32) {\n"
         "    copy Q[bx * 32, 0], Qs\n    copy K[0, j * 32], Ks\n    copy V[j * 32, 0], Vs\n"
         "    fill S, 0.0\n    gemm Qs, Ks, S, accumulate=true\n"
         "    reduce S, Mx, op=max, axis=1\n    map P = S - Mx\n"
         "    gemm P, Vs, Acc, accumulate=true\n  }\n"
         "  copy Acc, O[bx * 32, 0]\n}\n";
}

std::string broadcast_into_shared(DType d) {
  std::string t = dt(d);
  return "kernel xchg_broadcast(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 32), ceildiv(M, 32)) threads(128) {\n"
         "  alloc T: shared " + t + "[32, 32]\n  alloc F: fragment " + t + "[32, 32]\n  alloc R: fragment " + t + "[32, 1]\n"
         "  copy X[by * 32, bx * 32], F\n  copy X[by * 32, bx * 32], T\n"
         "  reduce F, R, op=max, axis=1\n  map T = T - R\n"
         "  copy T, Y[by * 32, bx * 32]\n}\n";
}

}  // namespace

void add_exchange_cases(Generator& g) {
  {
    CaseSpec c;
    c.name = "tegula.exchange.chained_gemms.f16";
    c.row = "exchange chained gemms";
    c.kernel = chained_gemms(DType::F16);
    c.symbols = {{"M", 45}, {"D", 64}, {"N", 71}};
    c.tensors = {input(Values::SmallLattice), input(Values::SmallLattice), input(Values::SmallLattice), output()};
    c.scalars.assign(c.tensors.size(), 0);
    c.unsupported = g.needs({DType::F16, DType::F32});
    g.add(std::move(c));
  }
  for (DType d : float_dtypes()) {
    CaseSpec c;
    c.name = std::string("tegula.exchange.broadcast_into_shared.") + dt(d);
    c.row = "exchange broadcast into shared";
    c.kernel = broadcast_into_shared(d);
    c.symbols = {{"M", 37}, {"N", 45}};
    c.tensors = {input(Values::Lattice), output()};
    c.scalars.assign(c.tensors.size(), 0);
    c.unsupported = g.needs({d});
    g.add(std::move(c));
  }
}

}  // namespace tegula::conformance
