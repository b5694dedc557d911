// The sm_90a wgmma fragment layouts agree, for every thread, value and allowed N, with the
// closed forms of research/mma.md section 2: thread (w, g, t) = 32w + 4g + t,
//   accumulator d[p + 2h + 4j] = D[16w + g + 8h][8j + 2t + p],
//   16-bit A    a[p + 2h + 4q] = A[16w + g + 8h][2t + p + 8q],
// and for tf32 / 8-bit A the per-warp mma.sync A fragment (CuTe ALayout_64x8 / 64x32).
#include <doctest/doctest.h>

#include <cstdint>

#include "targets/MatrixQuery.h"
#include "targets/Target.h"

namespace wgmma_formula_test {

using namespace tegula;

namespace {

struct Coord {
  int row;
  int col;
};

Coord acc(int thread, int v) {
  int w = thread / 32, g = (thread % 32) >> 2, t = thread & 3;
  int p = v % 2, h = (v / 2) % 2, j = v / 4;
  return {16 * w + g + 8 * h, 8 * j + 2 * t + p};
}

Coord a_16bit(int thread, int v) {
  int w = thread / 32, g = (thread % 32) >> 2, t = thread & 3;
  int p = v % 2, h = (v / 2) % 2, q = v / 4;
  return {16 * w + g + 8 * h, 2 * t + p + 8 * q};
}

Coord a_tf32(int thread, int v) {
  int w = thread / 32, g = (thread % 32) >> 2, t = thread & 3;
  return {16 * w + g + 8 * (v % 2), t + 4 * (v / 2)};
}

Coord a_8bit(int thread, int v) {
  int w = thread / 32, g = (thread % 32) >> 2, t = thread & 3;
  return {16 * w + g + 8 * ((v / 4) % 2), 4 * t + v % 4 + 16 * (v / 8)};
}

void check(const Layout& layout, const MmaShape& s, int rows, int values, Coord (*formula)(int, int)) {
  Result<BoundLayout> b = layout.bind(shape_symbols(s));
  REQUIRE(b.is_ok());
  REQUIRE(b->mode_size(0) == 128);
  REQUIRE(b->mode_size(1) == values);
  for (int thread = 0; thread < 128; ++thread) {
    for (int v = 0; v < values; ++v) {
      Coord want = formula(thread, v);
      int64_t index = b->index(thread, v);
      if (index % rows == want.row && index / rows == want.col) continue;
      FAIL_CHECK("thread " << thread << " value " << v << " at n=" << s.n << ": layout gives ("
                           << index % rows << ", " << index / rows << "), formula (" << want.row
                           << ", " << want.col << ")");
    }
  }
}

}  // namespace

TEST_CASE("wgmma accumulator and register-A fragments match the closed forms") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  int entries = 0;
  for (const MatrixInstruction& mi : t->matrix_instructions) {
    if (mi.kind != InstructionKind::Wgmma) continue;
    CAPTURE(mi.id);
    ++entries;
    const OperandPlacement* a = mi.a.find(OperandLocation::Registers);
    const OperandPlacement* d = mi.acc.find(OperandLocation::Registers);
    REQUIRE(a != nullptr);
    REQUIRE(d != nullptr);
    CHECK(mi.b.find(OperandLocation::Registers) == nullptr);  // B always comes from shared memory
    for (const MmaShape& s : instruction_shapes(mi)) {
      CHECK(s.m == 64);
      check(d->layout, s, 64, s.n / 2, acc);  // f32 m64nN: N/2 values per thread
      int bits = int(dtype_size(mi.a_types[0])) * 8;
      if (mi.a_types[0] == DType::TF32) bits = 32;
      if (bits == 16) check(a->layout, s, 64, 8, a_16bit);
      if (bits == 32) check(a->layout, s, 64, 4, a_tf32);
      if (bits == 8) check(a->layout, s, 64, 16, a_8bit);
    }
  }
  CHECK(entries == 16);
}

TEST_CASE("m64n256 f32 holds 128 accumulator values per thread") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  const MatrixInstruction* mi = t->find_instruction("wgmma.m64nNk16.bf16_f32");
  REQUIRE(mi != nullptr);
  Result<BoundLayout> b = mi->acc.find(OperandLocation::Registers)->layout.bind(shape_symbols({64, 256, 16}));
  REQUIRE(b.is_ok());
  CHECK(b->mode_size(1) == 128);
}

}  // namespace wgmma_formula_test
