/// \file
/// Control flow: serial loops with a trip count from a scalar (zero, one, several), nested
/// loops whose inner bound depends on the outer variable, an empty range, pipelined loops
/// with 1 to 4 stages (which must never change results), if/else on the block index and on
/// a scalar, and an explicit barrier between a shared tile's writes and another thread's
/// reads of them.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

const char* kHead =
    "(X: f32[M, N], Y: f32[M, N]%s) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n"
    "  alloc x: fragment f32[16, 64]\n  alloc acc: fragment f32[16, 64]\n"
    "  copy X[by * 16, bx * 64], x\n  fill acc, 0.0\n";
const char* kTail = "  copy acc, Y[by * 16, bx * 64]\n}\n";

std::string kernel(const std::string& name, const std::string& extra_params, const std::string& body) {
  std::string head = kHead;
  head.replace(head.find("%s"), 2, extra_params);
  return "kernel " + name + head + body + kTail;
}

std::string pipelined_sum(int stages) {
  return "kernel ctl_pipelined(X: f32[M, N], Y: f32[M]) grid(ceildiv(M, 8)) threads(128) {\n"
         "  alloc xs: shared f32[8, 64]\n  alloc acc: fragment f32[8]\n  fill acc, 0.0\n"
         "  pipelined j in 0 .. ceildiv(N, 64), stages=" + n(stages) + " {\n"
         "    copy X[bx * 8, j * 64], xs\n    reduce xs, acc, op=sum, axis=1, clear=false\n  }\n"
         "  copy acc, Y[bx * 8]\n}\n";
}

std::string barrier_reverse() {
  return "kernel ctl_barrier(X: f32[M, N], Y: f32[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n"
         "  alloc s: shared f32[16, 64]\n  parallel (i, j) in (16, 64) {\n"
         "    if by * 16 + i < M && bx * 64 + j < N {\n      store s[i, j] = X[by * 16 + i, bx * 64 + j]\n"
         "    } else {\n      store s[i, j] = 0\n    }\n  }\n  barrier\n  parallel (i, j) in (16, 64) {\n"
         "    if by * 16 + i < M && bx * 64 + j < N {\n      store Y[by * 16 + i, bx * 64 + j] = s[15 - i, 63 - j]\n"
         "    }\n  }\n}\n";
}

}  // namespace

void add_control_cases(Generator& g) {
  auto add = [&](const std::string& name, const std::string& row, const std::string& k, std::vector<TensorSpec> tensors,
                 std::vector<double> scalars, std::vector<std::pair<std::string, int64_t>> symbols = {{"M", 17}, {"N", 67}}) {
    CaseSpec c;
    c.name = "tegula.control." + name;
    c.row = row;
    c.kernel = k;
    c.symbols = std::move(symbols);
    c.tensors = std::move(tensors);
    c.scalars = std::move(scalars);
    c.unsupported = g.needs({DType::F32, DType::I32});
    g.add(std::move(c));
  };
  using kt::input, kt::output, kt::scalar;
  std::string for_n = kernel("ctl_for", ", n: i32", "  for i in 0 .. n {\n    map acc = acc + x\n  }\n");
  for (int64_t trips : {0, 1, 7})
    add("for.trips" + n(trips), "control for", for_n, {input(Values::Lattice), output(), scalar()}, {0, 0, double(trips)});
  add("for.nested", "control for",
      kernel("ctl_nested", "", "  for i in 0 .. 4 {\n    for j in 0 .. i {\n      map acc = acc + x\n    }\n  }\n"),
      {input(Values::Lattice), output()}, {0, 0});
  add("for.empty_range", "control for", kernel("ctl_empty", "", "  for i in 5 .. 3 {\n    map acc = acc + x\n  }\n  map acc = acc - 1.0\n"),
      {input(Values::Lattice), output()}, {0, 0});
  add("for.offset_range", "control for",
      kernel("ctl_offset", "", "  for i in -2 .. 3 {\n    map acc = acc + x * i\n  }\n"), {input(Values::Lattice), output()}, {0, 0});
  for (int stages = 1; stages <= 4; ++stages)
    add("pipelined.stages" + n(stages), "control pipelined", pipelined_sum(stages), {input(Values::Lattice), output()}, {0, 0},
        {{"M", 9}, {"N", 517}});
  add("if.block_parity", "control if",
      kernel("ctl_if_block", "", "  if (bx + by) % 2 == 0 {\n    map acc = x + 1.0\n  } else {\n    map acc = x - 1.0\n  }\n"),
      {input(Values::Lattice), output()}, {0, 0}, {{"M", 40}, {"N", 200}});
  std::string if_scalar = kernel("ctl_if_scalar", ", flag: i32",
                                 "  if flag > 0 {\n    map acc = x * 2.0\n  } else {\n    map acc = x * -3.0\n  }\n");
  for (int64_t flag : {0, 1})
    add("if.scalar" + n(flag), "control if", if_scalar, {input(Values::Lattice), output(), scalar()}, {0, 0, double(flag)});
  add("if.no_else", "control if", kernel("ctl_if_no_else", "", "  map acc = x\n  if by == 0 {\n    map acc = acc * 4.0\n  }\n"),
      {input(Values::Lattice), output()}, {0, 0}, {{"M", 40}, {"N", 70}});
  add("if.in_loop", "control if",
      kernel("ctl_if_loop", "", "  for i in 0 .. 6 {\n    if i % 3 == 1 {\n      map acc = acc + x\n    }\n  }\n"),
      {input(Values::Lattice), output()}, {0, 0});
  add("barrier.reverse", "control barrier", barrier_reverse(), {input(Values::Lattice), output()}, {0, 0}, {{"M", 21}, {"N", 100}});
}

}  // namespace tegula::conformance
