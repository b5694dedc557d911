// instruction_matches() expands ranges and checks dtypes; instruction_shapes() lists the
// concrete shapes; instructions_for() ranks the entries that fit a GEMM's dtypes.
#include <doctest/doctest.h>

#include "targets/MatrixQuery.h"
#include "targets/Target.h"

namespace instruction_query_test {

using namespace tegula;

TEST_CASE("instruction_matches expands N ranges") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  const MatrixInstruction* bf16 = t->find_instruction("wgmma.m64nNk16.bf16_f32");
  REQUIRE(bf16 != nullptr);
  CHECK(instruction_matches(*bf16, DType::BF16, DType::BF16, DType::F32, 64, 128, 16));
  CHECK(instruction_matches(*bf16, DType::BF16, DType::BF16, DType::F32, 64, 8, 16));
  CHECK(instruction_matches(*bf16, DType::BF16, DType::BF16, DType::F32, 64, 256, 16));
  CHECK(!instruction_matches(*bf16, DType::BF16, DType::BF16, DType::F32, 64, 12, 16));
  CHECK(!instruction_matches(*bf16, DType::BF16, DType::BF16, DType::F32, 64, 264, 16));
  CHECK(!instruction_matches(*bf16, DType::BF16, DType::BF16, DType::F32, 64, 128, 32));
  CHECK(!instruction_matches(*bf16, DType::BF16, DType::BF16, DType::F32, 128, 128, 16));
  CHECK(!instruction_matches(*bf16, DType::F16, DType::F16, DType::F32, 64, 128, 16));
  CHECK(!instruction_matches(*bf16, DType::BF16, DType::BF16, DType::F16, 64, 128, 16));

  const MatrixInstruction* i8 = t->find_instruction("wgmma.m64nNk32.i8_u8_i32");
  REQUIRE(i8 != nullptr);
  CHECK(instruction_matches(*i8, DType::I8, DType::U8, DType::I32, 64, 24, 32));
  CHECK(!instruction_matches(*i8, DType::I8, DType::U8, DType::I32, 64, 40, 32));
  CHECK(instruction_matches(*i8, DType::I8, DType::U8, DType::I32, 64, 48, 32));
  CHECK(!instruction_matches(*i8, DType::U8, DType::I8, DType::I32, 64, 48, 32));
}

TEST_CASE("the fma fallback matches 1x1x1 for every listed dtype") {
  Result<TargetDescription> t = builtin_target("host_cpu");
  REQUIRE(t.is_ok());
  const MatrixInstruction* fma = t->find_instruction("fma.scalar");
  REQUIRE(fma != nullptr);
  CHECK(instruction_matches(*fma, DType::F16, DType::BF16, DType::F32, 1, 1, 1));
  CHECK(instruction_matches(*fma, DType::I8, DType::I8, DType::I32, 1, 1, 1));
  CHECK(!instruction_matches(*fma, DType::F32, DType::F32, DType::F32, 2, 1, 1));
  CHECK(!instruction_matches(*fma, DType::Bool, DType::F32, DType::F32, 1, 1, 1));
}

TEST_CASE("instruction_shapes lists every concrete shape in order") {
  Result<TargetDescription> t = builtin_target("sm_100a");
  REQUIRE(t.is_ok());
  const MatrixInstruction* mi = t->find_instruction("tcgen05.m128nNk32.i8_i32");
  REQUIRE(mi != nullptr);
  std::vector<MmaShape> shapes = instruction_shapes(*mi);
  REQUIRE(shapes.size() == 1 + 16);  // N = 8, then 16..256 step 16
  CHECK(shapes[0] == MmaShape{128, 8, 32});
  CHECK(shapes[1] == MmaShape{128, 16, 32});
  CHECK(shapes.back() == MmaShape{128, 256, 32});
  Result<TargetDescription> a100 = builtin_target("sm_80");
  REQUIRE(a100.is_ok());
  const MatrixInstruction* f64 = a100->find_instruction("mma_sync.m8n8k4.f64_f64");
  REQUIRE(f64 != nullptr);
  CHECK(instruction_shapes(*f64) == std::vector<MmaShape>{{8, 8, 4}});
}

TEST_CASE("instructions_for ranks by rate per participating thread") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  std::vector<const MatrixInstruction*> bf16 = instructions_for(*t, DType::BF16, DType::BF16, DType::F32);
  REQUIRE(bf16.size() == 4);  // wgmma, mma.sync k16 and k8, fma
  CHECK(bf16[0]->kind == InstructionKind::Wgmma);
  CHECK(bf16[1]->id == "mma_sync.m16n8k16.bf16_f32");  // ties keep catalogue order
  CHECK(bf16[2]->id == "mma_sync.m16n8k8.bf16_f32");
  CHECK(bf16.back()->kind == InstructionKind::Fma);

  Result<TargetDescription> b200 = builtin_target("sm_100a");
  REQUIRE(b200.is_ok());
  std::vector<const MatrixInstruction*> fp8 = instructions_for(*b200, DType::E4M3, DType::E5M2, DType::F32);
  REQUIRE(!fp8.empty());
  CHECK(fp8[0]->id == "tcgen05.m128nNk32.e4m3_e5m2_f32");
}

TEST_CASE("targets without a matrix path for a dtype fall back to fma") {
  Result<TargetDescription> mi300 = builtin_target("gfx942");
  REQUIRE(mi300.is_ok());
  std::vector<const MatrixInstruction*> fp8 = instructions_for(*mi300, DType::E4M3, DType::E4M3, DType::F32);
  REQUIRE(fp8.size() == 1);
  CHECK(fp8[0]->kind == InstructionKind::Fma);
  Result<TargetDescription> vk = builtin_target("vulkan_generic");
  REQUIRE(vk.is_ok());
  CHECK(instructions_for(*vk, DType::F16, DType::F16, DType::F32).size() == 1);
  CHECK(instructions_for(*vk, DType::BF16, DType::BF16, DType::F32).empty());
}

}  // namespace instruction_query_test
