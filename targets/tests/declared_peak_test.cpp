// targets/Peak.h: each built-in description's declared figures follow from its catalogue.
// Where a description declares its clock, the peak derived for the catalogue's best
// instruction of each dtype in peak.tflops is the data sheet's figure, which ties the
// catalogue rates, subgroups_per_cu, compute_units and clock_mhz together; a wrong fact in
// any of them fails here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "targets/Peak.h"
#include "targets/tests/TestDescriptions.h"

namespace declared_peak_test {

using namespace tegula;

/// The highest instruction peak for dtype `d` as A operand.
static double best_peak(const TargetDescription& t, DType d) {
  double best = 0;
  for (const MatrixInstruction& m : t.matrix_instructions)
    if (m.kind != InstructionKind::Fma && std::find(m.a_types.begin(), m.a_types.end(), d) != m.a_types.end())
      best = std::max(best, instruction_peak_tflops(t, m).value);
  return best;
}

TEST_CASE("derived instruction peaks reproduce the data sheets' figures") {
  // gfx950's fp8 figures are for the 32x32x64 f8f6f4 shapes the catalogue does not have yet
  // (its fp8 entries are gfx942's shapes, at half that rate): only bf16 is checked there.
  struct Want {
    const char* target;
    DType dtype;
    double tflops;
  };
  for (Want w : {Want{"sm_80", DType::BF16, 312}, Want{"sm_80", DType::I8, 624}, Want{"sm_90a", DType::BF16, 989},
                 Want{"sm_90a", DType::E4M3, 1979}, Want{"sm_90a", DType::E5M2, 1979}, Want{"gfx942", DType::BF16, 1307.4},
                 Want{"gfx950", DType::BF16, 2517}, Want{"sm_100a", DType::BF16, 2250}, Want{"sm_100a", DType::E4M3, 4500}}) {
    CAPTURE(w.target);
    CAPTURE(dtype_name(w.dtype));
    Result<TargetDescription> t = builtin_target(w.target);
    REQUIRE(t.is_ok());
    CHECK(std::abs(best_peak(*t, w.dtype) / w.tflops - 1) < 0.005);
  }
}

TEST_CASE("the FMA fallback's peak is the FP32 vector peak") {
  // H100 SXM: 67 TFLOP/s FP32 at the 1830 MHz of the tensor figures (66.9); A100: 19.5;
  // MI300X: 163.4.
  struct Want {
    const char* target;
    double tflops;
  };
  for (Want w : {Want{"sm_90a", 61.8}, Want{"sm_80", 19.5}, Want{"gfx942", 163.4}}) {
    CAPTURE(w.target);
    Result<TargetDescription> t = builtin_target(w.target);
    REQUIRE(t.is_ok());
    const MatrixInstruction* fma = t->find_instruction("fma.scalar");
    REQUIRE(fma != nullptr);
    DeclaredPeak p = instruction_peak_tflops(*t, *fma);
    CHECK(std::abs(p.value / w.tflops - 1) < 0.01);
    CHECK(p.basis.find("FMA lanes") != std::string::npos);
  }
}

TEST_CASE("warp-scope instructions issue four at once, warpgroup-scope ones one") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  const MatrixInstruction* mma = t->find_instruction("mma_sync.m16n8k16.bf16_f32");
  const MatrixInstruction* wgmma = t->find_instruction("wgmma.m64nNk16.bf16_f32");
  REQUIRE(mma != nullptr);
  REQUIRE(wgmma != nullptr);
  CHECK(groups_per_cu(*t, *mma) == 4);
  CHECK(groups_per_cu(*t, *wgmma) == 1);
  CHECK(instruction_peak_tflops(*t, *wgmma).basis.find("(declared)") != std::string::npos);
}

TEST_CASE("a clock not declared is derived, and says so") {
  Result<TargetDescription> t = builtin_target("sm_100a");
  REQUIRE(t.is_ok());
  REQUIRE(!t->peak.clock_mhz);
  const MatrixInstruction* m = t->find_instruction("tcgen05.m128nNk16.bf16_f32");
  REQUIRE(m != nullptr);
  DeclaredPeak p = instruction_peak_tflops(*t, *m);
  CHECK(p.declared());
  CHECK(p.basis.find("derived: peak.tflops.bf16 2250") != std::string::npos);
}

TEST_CASE("what a description lacks is named, and no peak is made up") {
  Result<TargetDescription> small = parse_target(test::kSmallTarget, "small.json");
  REQUIRE(small.is_ok());
  const MatrixInstruction& first = small->matrix_instructions.front();
  DeclaredPeak p = instruction_peak_tflops(*small, first);
  CHECK(!p.declared());
  CHECK(p.basis.find("compute_units") != std::string::npos);
  CHECK(memory_peak_gbps(*small).value == 4800);

  Result<TargetDescription> sm89 = builtin_target("sm_89");
  REQUIRE(sm89.is_ok());
  CHECK(!memory_peak_gbps(*sm89).declared());
  CHECK(memory_peak_gbps(*sm89).basis.find("no peak.memory_gbps") != std::string::npos);
}

TEST_CASE("malformed peak facts are refused with their path") {
  std::string text = test::kSmallTarget;
  std::string from = "\"memory_gbps\": 4800}";
  REQUIRE(text.find(from) != std::string::npos);
  for (auto [bad, message] : {std::pair<const char*, const char*>{"\"memory_gbps\": 4800, \"clock_mhz\": -5}", "peak.clock_mhz"},
                              {"\"memory_gbps\": 4800, \"subgroups_per_cu\": 0}", "peak.subgroups_per_cu"},
                              {"\"memory_gbps\": 4800, \"fma_lanes_per_cu\": 1.5}", "peak.fma_lanes_per_cu"},
                              {"\"memory_gbps\": 4800, \"clock\": 1}", "clock"}}) {
    std::string t = text;
    t.replace(t.find(from), from.size(), bad);
    Result<TargetDescription> r = parse_target(t, "small.json");
    CAPTURE(bad);
    REQUIRE(!r.is_ok());
    CHECK(r.status().message().find(message) != std::string::npos);
  }
}

}  // namespace declared_peak_test
