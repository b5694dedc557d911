/// \file
/// atomic_add: blocks along z add their own multiple of a tile into one global tensor, so
/// several blocks race on every element; on the exact lattice the result is the same in
/// any order. From fragment and shared tiles, with one and with eight contending blocks,
/// over the dtypes the IR allows (f64, f32, f16, bf16, i32), masked at the edges.
#include <cstdint>
#include <string>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

std::string atomic_kernel(DType d, const char* scope, int64_t blocks) {
  std::string t = dt(d);
  return "kernel atomic_tiles(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16), " + n(blocks) +
         ") threads(128) {\n  alloc t: " + scope + " " + t + "[16, 64]\n  copy X[by * 16, bx * 64], t\n" +
         "  map t = t * (bz + 1)\n  atomic_add t, Y[by * 16, bx * 64]\n}\n";
}

}  // namespace

void add_atomic_cases(Generator& g) {
  struct Variant {
    const char* name;
    const char* scope;
    int64_t blocks, m, n;
  };
  const Variant variants[] = {{"fragment.single.edge", "fragment", 1, 17, 67},
                              {"fragment.contended.edge", "fragment", 8, 17, 67},
                              {"fragment.contended.one", "fragment", 8, 1, 1},
                              {"shared.contended.edge", "shared", 4, 33, 130}};
  for (DType d : {DType::F64, DType::F32, DType::F16, DType::BF16, DType::I32}) {
    for (const Variant& v : variants) {
      CaseSpec c;
      c.name = std::string("tegula.atomic_add.") + v.name + "." + dt(d);
      c.row = "atomic_add";
      c.kernel = atomic_kernel(d, v.scope, v.blocks);
      c.symbols = {{"M", v.m}, {"N", v.n}};
      // 8 blocks add 36 times a lattice value: sums stay below 256 halves (exact in bf16).
      Values lattice = d == DType::BF16 || d == DType::F16 ? Values::SmallLattice : Values::Lattice;
      c.tensors = {input(lattice), inout(lattice)};
      c.scalars = {0, 0};
      c.unsupported = g.needs({d});
      if (std::string(v.name) == "fragment.contended.edge") {
        CaseSpec m = c;
        m.name = std::string("tegula.atomic_add.fragment.contended.misaligned.") + dt(d);
        m.misalign = {1, 1};
        g.add(std::move(m));
      }
      g.add(std::move(c));
    }
  }
}

}  // namespace tegula::conformance
