// Each device describes itself: the description parses and validates, carries what the
// device reports (subgroup width, workgroup and shared-memory limits, dtypes its features
// allow), and lists one coopmat entry per usable cooperative-matrix shape plus the fma
// fallback. The H200 facts come from shared/research/mma.md.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <cstdint>
#include <cstring>

#include "targets/Peak.h"

namespace device_description_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

TEST_CASE("an H200's description has its limits and cooperative-matrix catalogue") {
  TargetDescription t = describe(h200_caps());
  CHECK(t.name == "vulkan_nvidia_h200");
  CHECK(t.subgroup_width == 32);
  CHECK(t.shared_memory_per_block == 49152);
  CHECK(t.max_threads_per_block == 1024);
  CHECK(t.compute_units == 132);  // VK_NV_shader_sm_builtins
  CHECK(t.has_feature(Feature::CooperativeMatrix));
  CHECK(t.has_feature(Feature::F16));
  CHECK(t.has_feature(Feature::Int8));
  int coopmat = 0, workgroup = 0;
  for (const MatrixInstruction& mi : t.matrix_instructions) {
    if (mi.kind != InstructionKind::Coopmat) continue;
    CHECK(mi.acc.find(OperandLocation::Registers)->form == OperandPlacement::Form::Opaque);
    if (mi.scope == GroupScope::Cta) {  // workgroup matrices (workgroup_matrix_test)
      ++workgroup;
      continue;
    }
    ++coopmat;
    CHECK(mi.scope == GroupScope::Subgroup);
    CHECK(mi.group_threads == 32);
  }
  // 11 reported shapes; bf16 needs SPV_KHR_bfloat16, which the generator does not emit yet.
  CHECK(coopmat == 10);
  // f16 -> f16 and f16 -> f32 for 32, 64, 128 and 256 invocations.
  CHECK(workgroup == 8);
  CHECK(t.find_instruction("coopmat.m16n16k16.f16_f32"));
  CHECK(t.find_instruction("coopmat.m16n8k32.u8_i32"));
  CHECK(t.find_instruction("fma.scalar"));
}

TEST_CASE("a device the data-sheet table knows declares its peaks; others declare none") {
  // Vulkan reports neither clock nor bandwidth: the H200's are sm_90a.json's facts
  // (DeclaredPeaks.h), so the performance section can give percentages on vulkan:0.
  TargetDescription t = describe(h200_caps());
  REQUIRE(t.peak.memory_gbps.has_value());
  CHECK(*t.peak.memory_gbps == 4800);
  CHECK(t.peak.clock_mhz == 1830);
  CHECK(t.peak.subgroups_per_cu == 4);
  CHECK(t.peak.fma_lanes_per_cu == 128);
  DeclaredPeak fma = instruction_peak_tflops(t, *t.find_instruction("fma.scalar"));
  REQUIRE_MESSAGE(fma.declared(), fma.basis);
  CHECK(fma.value == doctest::Approx(2.0 * 128 * 132 * 1830e6 / 1e12));
  DeclaredPeak mma = instruction_peak_tflops(t, *t.find_instruction("coopmat.m16n16k16.f16_f32"));
  CHECK_MESSAGE(mma.declared(), mma.basis);
  CHECK(memory_peak_gbps(t).value == 4800);
  // lavapipe (a CPU behind Vulkan) and an unknown GPU: nothing declared, and said so.
  for (DeviceCaps c : {lavapipe_caps(), h200_caps()}) {
    if (c.name == "NVIDIA H200") c.name = "NVIDIA Hypothetical";
    TargetDescription u = describe(c);
    CHECK_FALSE(u.peak.memory_gbps.has_value());
    CHECK_FALSE(u.peak.clock_mhz.has_value());
    CHECK_FALSE(memory_peak_gbps(u).declared());
  }
}

TEST_CASE("a device without 8- or 16-bit storage does not claim those dtypes") {
  DeviceCaps c = lavapipe_caps();
  c.storage8 = false;
  c.storage16 = false;
  c.float64 = false;
  c.subgroup_shuffle = false;
  TargetDescription t = describe(c);
  for (DType d : {DType::F16, DType::BF16, DType::I8, DType::U8, DType::E4M3, DType::E5M2, DType::Bool, DType::F64})
    CHECK_FALSE(t.has_dtype(d));
  CHECK(t.has_dtype(DType::F32));
  CHECK(t.subgroup_width == 1);
  CHECK_FALSE(t.has_feature(Feature::SubgroupOps));
}

TEST_CASE("a device that reports no compute units describes none (the ranking assumes one and says so)") {
  DeviceCaps c = lavapipe_caps();
  CHECK_FALSE(describe(c).compute_units.has_value());
  c.compute_units = 7;
  CHECK(describe(c).compute_units == 7);
}

TEST_CASE("f64 needs both shaderFloat64 and shaderInt64 (exp, exp2, log work on its 64-bit integer bits)") {
  DeviceCaps c = lavapipe_caps();
  CHECK(describe(c).has_dtype(DType::F64));
  c.int64 = false;
  CHECK_FALSE(describe(c).has_dtype(DType::F64));
  c = lavapipe_caps();
  c.float64 = false;
  CHECK_FALSE(describe(c).has_dtype(DType::F64));
}

TEST_CASE("the devices found describe themselves from what they report") {
  VulkanPlugin p;
  for (uint32_t i = 0; i < p.devices(); ++i) {
    std::string json = p.target_json(i);
    auto t = parse_target(json, "device");
    REQUIRE_MESSAGE(t.is_ok(), t.status().str());
    tg_device_properties props;
    std::memset(&props, 0, sizeof(props));
    props.struct_size = sizeof(props);
    REQUIRE(p.code(p.api()->device_properties(p.handle(), i, &props)) == TG_OK);
    CHECK(t->name == props.target);
    CHECK(t->backend == Backend::Vulkan);
    CHECK(t->subgroup_width >= 1);
    CHECK(t->shared_memory_per_block >= 16384);
    CHECK(t->has_dtype(DType::F32));
    CHECK(t->find_instruction("fma.scalar"));
    MESSAGE(props.name << ": " << describe_target(*t));
  }
}

}  // namespace device_description_test
