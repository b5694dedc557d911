// The performance figures as data: the suite built from a description names every catalogue
// instruction once, compiles every example into the build, gives each a positive size, and
// sets each figure against the right declared peak: memory figures against
// peak.memory_gbps, a forced instruction against its own peak, a compute-bound example
// against the best instruction for its dtype; rates and times against none. The pipelined
// copy names the copy engine the lowering takes on the target.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <utility>

#include "conformance/perf/PerfMeasure.h"
#include "conformance/perf/PerfSuite.h"
#include "targets/Target.h"

namespace perf_figures_test {

using namespace tegula;
using namespace tegula::conformance;

namespace {

const PerfSpec* find(const std::vector<PerfSpec>& specs, const std::string& name) {
  for (const PerfSpec& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace

TEST_CASE("every built-in target gets every primitive, every catalogue entry and every example once") {
  for (const std::string& name : builtin_target_names()) {
    CAPTURE(name);
    Result<TargetDescription> t = builtin_target(name);
    REQUIRE(t.is_ok());
    for (bool large : {false, true}) {
      std::vector<PerfSpec> specs = build_perf_suite(*t, large);
      std::set<std::string> names;
      for (const PerfSpec& s : specs) {
        CAPTURE(s.name);
        CHECK(names.insert(s.name).second);
        CHECK(s.unsupported.find("not compiled into this build") == std::string::npos);
        CHECK(s.unsupported.find("does not verify") == std::string::npos);
        CHECK((s.bytes > 0 || s.kind != PerfKind::Kernel));
        if (s.bound == PerfBound::Compute) CHECK(s.flops > 0);
      }
      for (const MatrixInstruction& m : t->matrix_instructions) CHECK(names.count("tegula.perf.gemm." + m.id) == 1);
      for (const char* p : {"copy.registers", "copy.shared", "copy.pipelined", "reduce.rows", "map.exp_chain", "atomic_add.contended",
                            "launch", "compile.copy", "example.gemm_bf16", "example.flash_attn_d128", "example.mla_decode"})
        CHECK(names.count(std::string("tegula.perf.") + p) == 1);
    }
  }
}

TEST_CASE("figures on sm_90a are set against its declared peaks") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  std::vector<PerfSpec> specs = build_perf_suite(*t, true);
  const PerfSpec* copy = find(specs, "tegula.perf.copy.registers");
  REQUIRE(copy);
  CHECK(copy->unsupported.empty());
  CHECK(figure_peak(*copy, *t).value == 4800);
  // 512 MiB moved in 0.125 ms: 4295 GB/s, 89.5% of 4800.
  Json method = Json::object();
  method.set("median_ms", 0.125);
  Json f = figure_json(*copy, *t, method);
  CHECK(f.find("value")->as_double() == doctest::Approx(4295).epsilon(0.001));
  CHECK(f.find("percent")->as_double() == doctest::Approx(89.5).epsilon(0.001));
  CHECK(f.find("unit")->as_string() == "GB/s");

  const PerfSpec* wgmma = find(specs, "tegula.perf.gemm.wgmma.m64nNk16.bf16_f32");
  REQUIRE(wgmma);
  CHECK(wgmma->unsupported.empty());
  CHECK(figure_peak(*wgmma, *t).value == doctest::Approx(989.4).epsilon(0.001));
  const PerfSpec* mma = find(specs, "tegula.perf.gemm.mma_sync.m16n8k16.bf16_f32");
  REQUIRE(mma);
  CHECK(figure_peak(*mma, *t).value == doctest::Approx(989.4 / 2).epsilon(0.001));
  // An example's peak is the best instruction's for its dtype: wgmma for bf16 attention.
  const PerfSpec* attention = find(specs, "tegula.perf.example.flash_attn_d128");
  REQUIRE(attention);
  DeclaredPeak p = figure_peak(*attention, *t);
  CHECK(p.value == doctest::Approx(989.4).epsilon(0.001));
  CHECK(p.basis.find("wgmma") == 0);
  // Rates and times have no peak, and say so.
  for (const char* name : {"tegula.perf.map.exp_chain", "tegula.perf.atomic_add.contended", "tegula.perf.launch"}) {
    const PerfSpec* s = find(specs, name);
    REQUIRE(s);
    Json g = figure_json(*s, *t, method);
    CHECK(g.find("percent")->is_null());
    CHECK(g.find("peak")->is_null());
    CHECK(!g.find("peak_basis")->as_string().empty());
  }
}

TEST_CASE("a device that declares less than it reaches shows more than 100%") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  std::vector<PerfSpec> specs = build_perf_suite(*t, true);
  const PerfSpec* copy = find(specs, "tegula.perf.copy.registers");
  REQUIRE(copy);
  Json method = Json::object();
  method.set("median_ms", 0.05);  // 10.7 TB/s against a declared 4.8
  Json f = figure_json(*copy, *t, method);
  CHECK(f.find("percent")->as_double() > 200);
}

TEST_CASE("what a small device cannot run is not measured, with the lowering's reason") {
  Result<TargetDescription> t = builtin_target("vulkan_generic");
  REQUIRE(t.is_ok());
  // A device without fp8 storage (vulkan_generic holds e4m3 since 2026-12-08).
  std::erase(t->dtypes, DType::E4M3);
  std::vector<PerfSpec> specs = build_perf_suite(*t, false);
  const PerfSpec* mla = find(specs, "tegula.perf.example.mla_decode");
  REQUIRE(mla);
  CHECK_FALSE(mla->unsupported.empty());
  const PerfSpec* fp8 = find(specs, "tegula.perf.example.gemm_fp8");
  REQUIRE(fp8);
  CHECK_MESSAGE(fp8->unsupported.find("is e4m3, which target 'vulkan_generic' does not hold") != std::string::npos, fp8->unsupported);
}

TEST_CASE("the pipelined copy names the engine the lowering takes on each target") {
  // On sm_90a too the copy is cp.async: the shared tile's rows of 4 KiB are padded against
  // bank conflicts (layout.pad), which the tensor copy engine cannot write; TMA takes the
  // swizzled operand tiles of the gemms instead (their figures).
  for (auto [target, engine] : {std::pair{"sm_90a", "cp.async"}, std::pair{"sm_80", "cp.async"},
                                std::pair{"vulkan_generic", "registers, one iteration ahead"}}) {
    CAPTURE(target);
    Result<TargetDescription> t = builtin_target(target);
    REQUIRE(t.is_ok());
    std::vector<PerfSpec> specs = build_perf_suite(*t, false);
    const PerfSpec* copy = find(specs, "tegula.perf.copy.pipelined");
    REQUIRE(copy);
    CHECK_MESSAGE(copy->what.find(std::string("; on ") + target + ": " + engine) != std::string::npos, copy->what);
    // The plain loop it is compared with takes none.
    const PerfSpec* loop = find(specs, "tegula.perf.copy.loop");
    REQUIRE(loop);
    CHECK(loop->what.find("; on ") == std::string::npos);
  }
}

TEST_CASE("a figure filter selects by name") {
  Result<TargetDescription> t = builtin_target("sm_80");
  REQUIRE(t.is_ok());
  std::vector<PerfSpec> all = build_perf_suite(*t, false);
  std::vector<PerfSpec> copies = select_figures(all, "tegula.perf.copy.*");
  CHECK(copies.size() == 5);  // registers, scalar, shared, pipelined, loop
  std::vector<PerfSpec> no_gemm = select_figures(all, "-tegula.perf.gemm.*");
  CHECK(no_gemm.size() == all.size() - t->matrix_instructions.size());
}

}  // namespace perf_figures_test
