/// \file
/// Block-level loads (ir/OpList.h): integer elements of global tensors as loop bounds, tile
/// offsets and if conditions. Variable-length segments (`for j in Cu[bx] .. Cu[bx + 1]`,
/// offsets with empty and one-row segments among longer ones) summed in a serial loop and
/// copied row by row in a pipelined loop of 1 to 3 stages (a trip count known only at run
/// time, zero and one included); a paged gather (a block table gives the page of K each
/// block copies, every dtype); a paged gemm whose pipelined loop runs over a block table
/// for a per-block page count (zero pages included); an if on a loaded flag.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

std::string segment_sum(DType d) {
  std::string t = dt(d);
  return "kernel load_segment_sum(X: " + t + "[T, 64], Cu: i32[S], Y: f32[B, 64]) grid(B) threads(64) {\n"
         "  alloc acc: fragment f32[1, 64]\n  alloc row: fragment " + t + "[1, 64]\n  fill acc, 0.0\n"
         "  for j in Cu[bx] .. Cu[bx + 1] {\n    copy X[j, 0], row\n    map acc = acc + row\n  }\n"
         "  copy acc, Y[bx, 0]\n}\n";
}

std::string segment_copy(int stages) {
  return "kernel load_segment_copy(X: f32[T, 64], Cu: i32[S], Y: f32[T, 64]) grid(S - 1) threads(64) {\n"
         "  alloc row: shared f32[1, 64]\n"
         "  pipelined j in Cu[bx] .. Cu[bx + 1], stages=" + n(stages) + " {\n"
         "    copy X[j, 0], row\n    copy row, Y[j, 0]\n  }\n}\n";
}

std::string paged_gather(DType d) {
  std::string t = dt(d);
  return "kernel load_paged_gather(K: " + t + "[R, 64], Tbl: i32[P], O: " + t + "[Q, 64]) grid(ceildiv(Q, 16)) threads(128) {\n"
         "  alloc page: shared " + t + "[16, 64]\n  copy K[Tbl[bx] * 16, 0], page\n  copy page, O[bx * 16, 0]\n}\n";
}

std::string paged_gemm() {
  return "kernel load_paged_gemm(Q: f16[M, 32], K: f16[R, 32], Tbl: i32[B, P], Np: i32[B], C: f32[M, 64]) grid(B) threads(128) {\n"
         "  alloc Qs: shared f16[64, 32]\n  alloc Ks: shared f16[64, 32]\n  alloc Acc: fragment f32[64, 64]\n"
         "  copy Q[bx * 64, 0], Qs\n  fill Acc, 0.0\n"
         "  pipelined p in 0 .. Np[bx], stages=3 {\n    copy K[Tbl[bx, p] * 64, 0], Ks\n"
         "    gemm Qs, Ks, Acc, accumulate=true, trans_b=true\n  }\n"
         "  copy Acc, C[bx * 64, 0]\n}\n";
}

std::string if_flag() {
  return "kernel load_if_flag(X: f32[N, 64], F: i32[G], Y: f32[N, 64]) grid(ceildiv(N, 16)) threads(64) {\n"
         "  alloc t: fragment f32[16, 64]\n  copy X[bx * 16, 0], t\n"
         "  if F[bx] != 0 {\n    map t = t * 2.0\n  } else {\n    fill t, -1.0\n  }\n"
         "  copy t, Y[bx * 16, 0]\n}\n";
}

}  // namespace

void add_block_load_cases(Generator& g) {
  auto add = [&](const std::string& name, const std::string& row, const std::string& kernel,
                 std::vector<std::pair<std::string, int64_t>> symbols, std::vector<TensorSpec> tensors,
                 std::initializer_list<DType> dtypes) {
    CaseSpec c;
    c.name = "tegula.block_load." + name;
    c.row = row;
    c.kernel = kernel;
    c.symbols = std::move(symbols);
    c.tensors = std::move(tensors);
    c.scalars.assign(c.tensors.size(), 0);
    c.unsupported = g.needs(dtypes);
    g.add(std::move(c));
  };
  // 13 segments over 97 rows; the offsets' last value may stop short of T.
  for (DType d : {DType::F32, DType::F16, DType::I8}) {
    Values v = dtype_is_float(d) ? Values::Lattice : Values::Random;
    add(std::string("segments.sum.") + dt(d), "block_load segments", segment_sum(d), {{"T", 97}, {"S", 14}, {"B", 13}},
        {input(v), input(Values::Offsets, 97), output()}, {d, DType::F32, DType::I32});
  }
  for (int stages = 1; stages <= 3; ++stages)
    add("segments.copy.stages" + n(stages), "block_load segments", segment_copy(stages), {{"T", 61}, {"S", 12}},
        {input(Values::Lattice), input(Values::Offsets, 61), output()}, {DType::F32, DType::I32});
  for (DType d : all_dtypes())
    add(std::string("paged.gather.") + dt(d), "block_load paged", paged_gather(d), {{"R", 7 * 16}, {"P", 5}, {"Q", 5 * 16}},
        {input(Values::Bits), input(Values::Indices, 7), output()}, {d, DType::I32});
  // Pages per block in [0, 3]: a block with none stores zeros.
  add("paged.gemm", "block_load paged", paged_gemm(), {{"M", 6 * 64}, {"R", 5 * 64}, {"B", 6}, {"P", 3}},
      {input(Values::Lattice), input(Values::Lattice), input(Values::Indices, 5), input(Values::Indices, 4), output()},
      {DType::F16, DType::F32, DType::I32});
  add("if.flag", "block_load if", if_flag(), {{"N", 75}, {"G", 5}}, {input(Values::Lattice), input(Values::Indices, 2), output()},
      {DType::F32, DType::I32});
}

void add_offline_block_load_cases(Generator& gen, const std::string& offline_target) {
  std::vector<CaseSpec> all;
  Generator inner(gen.target(), all);
  add_block_load_cases(inner);
  for (CaseSpec& c : all) {
    if (!c.unsupported.empty()) continue;
    // The gather's dtypes differ only in the element copy, which the copy cases compile:
    // two of them keep the offline run short.
    bool gather = c.name.find(".paged.gather.") != std::string::npos;
    if (gather && c.name.find(".f16") == std::string::npos && c.name.find(".e4m3") == std::string::npos) continue;
    c.offline_target = offline_target;
    gen.add(std::move(c));
  }
}

}  // namespace tegula::conformance
