// The MFMA fragment layouts of gfx942/gfx950 agree, for all 64 lanes and every value, with
// the lane formulas of research/mma.md section 4 (ROCm matrix instruction calculator):
//   A: row = lane % M, k = (values per lane) * (lane / M) + v; B the same with n for row;
//   C 32x32: col = lane % 32, row = 8 (v / 4) + 4 (lane / 32) + v % 4;
//   C 16x16: col = lane % 16, row = 4 (lane / 16) + v.
#include <doctest/doctest.h>

#include <cstdint>

#include "targets/Target.h"

namespace mfma_formula_test {

using namespace tegula;

namespace {

void check_ab(const Layout& layout, int mn, int k) {
  int per_lane = mn * k / 64;
  Result<BoundLayout> b = layout.bind({});
  REQUIRE(b.is_ok());
  REQUIRE(b->mode_size(0) == 64);
  REQUIRE(b->mode_size(1) == per_lane);
  for (int lane = 0; lane < 64; ++lane) {
    for (int v = 0; v < per_lane; ++v) {
      int64_t index = b->index(lane, v);
      CAPTURE(lane);
      CAPTURE(v);
      CHECK(index % mn == lane % mn);
      CHECK(index / mn == per_lane * (lane / mn) + v);
    }
  }
}

void check_c(const Layout& layout, int mn) {
  Result<BoundLayout> b = layout.bind({});
  REQUIRE(b.is_ok());
  int values = mn * mn / 64;
  REQUIRE(b->mode_size(0) == 64);
  REQUIRE(b->mode_size(1) == values);
  for (int lane = 0; lane < 64; ++lane) {
    for (int v = 0; v < values; ++v) {
      int row = mn == 32 ? 8 * (v / 4) + 4 * (lane / 32) + v % 4 : 4 * (lane / 16) + v;
      int col = lane % mn;
      int64_t index = b->index(lane, v);
      CAPTURE(lane);
      CAPTURE(v);
      CHECK(index % mn == row);
      CHECK(index / mn == col);
    }
  }
}

}  // namespace

TEST_CASE("MFMA fragments match the lane formulas") {
  int entries = 0;
  for (const char* name : {"gfx942", "gfx950"}) {
    Result<TargetDescription> t = builtin_target(name);
    REQUIRE(t.is_ok());
    for (const MatrixInstruction& mi : t->matrix_instructions) {
      if (mi.kind != InstructionKind::Mfma) continue;
      CAPTURE(name);
      CAPTURE(mi.id);
      ++entries;
      int m = mi.m.values()[0], n = mi.n.values()[0], k = mi.k.values()[0];
      REQUIRE(m == n);
      check_ab(mi.a.find(OperandLocation::Registers)->layout, m, k);
      check_ab(mi.b.find(OperandLocation::Registers)->layout, n, k);
      check_c(mi.acc.find(OperandLocation::Registers)->layout, m);
    }
  }
  CHECK(entries >= 6 + 16);
}

TEST_CASE("32x32x8 f16: lane 33 holds rows 4..7 of column 1 in its first four values") {
  Result<TargetDescription> t = builtin_target("gfx942");
  REQUIRE(t.is_ok());
  const MatrixInstruction* mi = t->find_instruction("mfma.32x32x8.f16_f32");
  REQUIRE(mi != nullptr);
  Result<BoundLayout> c = mi->acc.find(OperandLocation::Registers)->layout.bind({});
  REQUIRE(c.is_ok());
  for (int v = 0; v < 4; ++v) CHECK(c->index(33, v) == (4 + v) + 32 * 1);
  CHECK(c->index(33, 4) == 12 + 32);  // v = 4 starts the next block of 8 rows
}

}  // namespace mfma_formula_test
