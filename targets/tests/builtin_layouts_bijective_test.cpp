// Every register fragment (and every tensor-memory read-back fragment) of every built-in
// entry is a bijection onto its operand tile, at every shape the entry allows. Validation
// already enforces this; the test re-checks it directly so a weakened validator cannot hide
// a broken description.
#include <doctest/doctest.h>

#include <cstdint>

#include "targets/MatrixQuery.h"
#include "targets/Target.h"

namespace builtin_layouts_bijective_test {

using namespace tegula;

namespace {

struct Counts {
  int layouts = 0;
  int checks = 0;
};

void check_operand(const MatrixInstruction& mi, const Operand& operand, const char* name,
                   int64_t rows, int64_t cols, const MmaShape& s, Counts& counts) {
  for (const OperandPlacement& p : operand.placements) {
    const Layout* layout = nullptr;
    if (p.form == OperandPlacement::Form::ThreadValue) layout = &p.layout;
    if (p.location == OperandLocation::TensorMemory && p.readback_layout) layout = &*p.readback_layout;
    if (layout == nullptr) continue;
    CAPTURE(mi.id);
    CAPTURE(name);
    CAPTURE(s.n);
    Result<BoundLayout> bound = layout->bind(shape_symbols(s));
    REQUIRE(bound.is_ok());
    CHECK(bound->mode_size(0) == mi.group_threads);
    CHECK(bound->mode_size(0) * bound->mode_size(1) == rows * cols);
    Status status = bound->check_bijective(rows, cols);
    CHECK_MESSAGE(status.is_ok(), status.message());
    ++counts.checks;
  }
}

}  // namespace

TEST_CASE("all register layouts of all built-ins are bijective at every shape") {
  Counts counts;
  for (const std::string& name : builtin_target_names()) {
    CAPTURE(name);
    Result<TargetDescription> t = builtin_target(name);
    REQUIRE(t.is_ok());
    for (const MatrixInstruction& mi : t->matrix_instructions) {
      for (const MmaShape& s : instruction_shapes(mi)) {
        check_operand(mi, mi.a, "a", s.m, s.k, s, counts);
        check_operand(mi, mi.b, "b", s.n, s.k, s, counts);
        check_operand(mi, mi.acc, "acc", s.m, s.n, s, counts);
      }
    }
  }
  // wgmma and tcgen05 ranges alone expand to hundreds of shapes.
  CHECK(counts.checks > 1000);
}

TEST_CASE("range entries expand to the documented N lists") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  const MatrixInstruction* bf16 = t->find_instruction("wgmma.m64nNk16.bf16_f32");
  REQUIRE(bf16 != nullptr);
  CHECK(instruction_shapes(*bf16).size() == 32);  // N = 8..256 step 8
  const MatrixInstruction* i8 = t->find_instruction("wgmma.m64nNk32.i8_i32");
  REQUIRE(i8 != nullptr);
  std::vector<int> n;
  for (const MmaShape& s : instruction_shapes(*i8)) n.push_back(s.n);
  REQUIRE(n.size() == 3 + 15);  // 8, 16, 24, then 32..256 step 16
  CHECK(n[0] == 8);
  CHECK(n[2] == 24);
  CHECK(n[3] == 32);
  CHECK(n[4] == 48);
  CHECK(n.back() == 256);
}

}  // namespace builtin_layouts_bijective_test
