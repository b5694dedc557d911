// The mma.sync fragment layouts of the NVIDIA built-ins agree, for every lane and value,
// with the closed-form PTX fragment formulas (research/mma.md section 1), computed here
// independently with g = lane >> 2 and t = lane & 3.
#include <cstdint>
#include <set>

#include <doctest/doctest.h>

#include "targets/Target.h"

namespace mma_sync_formula_test {

using namespace tegula;

namespace {

struct Coord {
  int row;
  int col;
};
using Formula = Coord (*)(int lane, int value);

// Operand tiles are column-major: A is (M,K), B is (N,K), C is (M,N).
Coord A_16x16_b16(int lane, int i) {
  int g = lane >> 2, t = lane & 3;
  return {g + 8 * ((i / 2) % 2), 2 * t + i % 2 + 8 * (i / 4)};
}
Coord B_8x16_b16(int lane, int i) {  // (n, k)
  int g = lane >> 2, t = lane & 3;
  return {g, 2 * t + i % 2 + 8 * (i / 2)};
}
Coord C_16x8(int lane, int i) {
  int g = lane >> 2, t = lane & 3;
  return {g + 8 * (i / 2), 2 * t + i % 2};
}
Coord A_16x8_tf32(int lane, int i) {
  int g = lane >> 2, t = lane & 3;
  return {g + 8 * (i % 2), t + 4 * (i / 2)};
}
Coord B_8x8_tf32(int lane, int i) {
  int g = lane >> 2, t = lane & 3;
  return {g, t + 4 * i};
}
Coord A_16x32_b8(int lane, int i) {
  int g = lane >> 2, t = lane & 3;
  return {g + 8 * ((i / 4) % 2), 4 * t + i % 4 + 16 * (i / 8)};
}
Coord B_8x32_b8(int lane, int i) {
  int g = lane >> 2, t = lane & 3;
  return {g, 4 * t + i % 4 + 16 * (i / 4)};
}

void check_layout(const Layout& layout, int rows, int values, Formula formula) {
  Result<BoundLayout> b = layout.bind({});
  REQUIRE(b.is_ok());
  REQUIRE(b->mode_size(0) == 32);
  REQUIRE(b->mode_size(1) == values);
  for (int lane = 0; lane < 32; ++lane) {
    for (int v = 0; v < values; ++v) {
      CAPTURE(lane);
      CAPTURE(v);
      int64_t index = b->index(lane, v);
      Coord want = formula(lane, v);
      CHECK(index % rows == want.row);
      CHECK(index / rows == want.col);
    }
  }
}

const Layout& registers(const Operand& operand) {
  const OperandPlacement* p = operand.find(OperandLocation::Registers);
  REQUIRE(p != nullptr);
  return p->layout;
}

bool is_16bit(DType t) { return t == DType::F16 || t == DType::BF16; }
bool is_8bit(DType t) { return dtype_size(t) == 1; }

}  // namespace

TEST_CASE("mma.sync fragments match the PTX formulas on every NVIDIA built-in") {
  int checked = 0;
  for (const char* name : {"sm_80", "sm_89", "sm_90a", "sm_100a"}) {
    CAPTURE(name);
    Result<TargetDescription> t = builtin_target(name);
    REQUIRE(t.is_ok());
    for (const MatrixInstruction& mi : t->matrix_instructions) {
      if (mi.kind != InstructionKind::MmaSync) continue;
      CAPTURE(mi.id);
      int m = mi.m.values()[0], k = mi.k.values()[0];
      DType a = mi.a_types[0];
      if (m == 16) {
        check_layout(registers(mi.acc), 16, 4, C_16x8);
        ++checked;
      }
      if (m == 16 && k == 16 && is_16bit(a)) {
        check_layout(registers(mi.a), 16, 8, A_16x16_b16);
        check_layout(registers(mi.b), 8, 4, B_8x16_b16);
      }
      if (m == 16 && k == 8 && a == DType::TF32) {
        check_layout(registers(mi.a), 16, 4, A_16x8_tf32);
        check_layout(registers(mi.b), 8, 2, B_8x8_tf32);
      }
      if (m == 16 && k == 32 && is_8bit(a)) {
        check_layout(registers(mi.a), 16, 16, A_16x32_b8);
        check_layout(registers(mi.b), 8, 8, B_8x32_b8);
      }
    }
  }
  CHECK(checked > 40);
}

TEST_CASE("the worked examples of the research notes") {
  Result<TargetDescription> t = builtin_target("sm_80");
  REQUIRE(t.is_ok());
  const MatrixInstruction* mi = t->find_instruction("mma_sync.m16n8k16.bf16_f32");
  REQUIRE(mi != nullptr);
  Result<BoundLayout> a = registers(mi->a).bind({});
  Result<BoundLayout> b = registers(mi->b).bind({});
  REQUIRE(a.is_ok());
  REQUIRE(b.is_ok());
  auto rows_cols = [&](const BoundLayout& l, int lane, int rows, int values) {
    std::set<int64_t> r, c;
    for (int v = 0; v < values; ++v) {
      r.insert(l.index(lane, v) % rows);
      c.insert(l.index(lane, v) / rows);
    }
    return std::make_pair(r, c);
  };
  // Lane 5 (g=1, t=1) holds A rows {1,9} x cols {2,3,10,11}.
  auto [r5, c5] = rows_cols(*a, 5, 16, 8);
  CHECK(r5 == std::set<int64_t>{1, 9});
  CHECK(c5 == std::set<int64_t>{2, 3, 10, 11});
  // Lane 31 (g=7, t=3) holds A rows {7,15} x cols {6,7,14,15}.
  auto [r31, c31] = rows_cols(*a, 31, 16, 8);
  CHECK(r31 == std::set<int64_t>{7, 15});
  CHECK(c31 == std::set<int64_t>{6, 7, 14, 15});
  // Lane 0 holds B k {0,1,8,9} of column n = 0 (B is stored (N,K)).
  auto [n0, k0] = rows_cols(*b, 0, 8, 4);
  CHECK(n0 == std::set<int64_t>{0});
  CHECK(k0 == std::set<int64_t>{0, 1, 8, 9});
}

}  // namespace mma_sync_formula_test
