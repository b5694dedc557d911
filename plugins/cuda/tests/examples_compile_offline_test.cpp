// Every example compiles offline (NVRTC, no device) for sm_80, sm_89, sm_90a and sm_100a,
// both as the runtime lowers it and with the divisibility and rasterisation a tuned launch
// gives, and the PTX holds the instructions each target should use.
#include "plugins/cuda/tests/CudaTest.h"

namespace examples_compile_offline_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

const char* kExamples[] = {"elementwise/silu_mul.tile", "elementwise/silu_mul_parallel.tile", "gemm/gemm_bf16.tile",
                           "gemm/gemm_f16.tile",         "reduce/row_sum.tile",                "softmax/softmax_rows.tile",
                           "norm/rmsnorm.tile",          "norm/layernorm.tile",                "norm/rmsnorm_residual.tile",
                           "norm/layernorm_residual.tile", "quant/gemm_fp8.tile"};
const char* kTargets[] = {"sm_80", "sm_89", "sm_90a", "sm_100a"};

ir::LowerOptions tuned() {
  ir::LowerOptions o;
  o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
  o.raster_group = 8;
  return o;
}

}  // namespace

TEST_CASE("every example compiles for every CUDA target") {
  TG_REQUIRE_NVRTC();
  for (const char* ex : kExamples) {
    for (const char* t : kTargets) {
      for (int variant = 0; variant < 2; ++variant) {
        CAPTURE(ex);
        CAPTURE(t);
        CAPTURE(variant);
        auto ptx = ptx_for(example(ex), t, variant ? tuned() : ir::LowerOptions{});
        REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
        CHECK(contains(*ptx, std::string(".target ") + t));
      }
    }
  }
}

TEST_CASE("gemm examples use each target's matrix instructions and copy engines") {
  TG_REQUIRE_NVRTC();
  struct Want {
    const char* target;
    bool tuned;
    std::vector<std::string> needles;
  };
  const Want wants[] = {
      {"sm_80", false, {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "ldmatrix.sync.aligned"}},
      {"sm_80", true, {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "cp.async.cg.shared.global", "cp.async.wait_group"}},
      {"sm_89", true, {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "cp.async.cg.shared.global"}},
      {"sm_90a", false, {"wgmma.fence.sync.aligned", "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", "wgmma.commit_group.sync.aligned",
                         "wgmma.wait_group.sync.aligned", "fence.proxy.async.shared::cta"}},
      {"sm_90a", true, {"wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier",
                        "mbarrier.arrive.expect_tx", "mbarrier.try_wait.parity", "wgmma.wait_group.sync.aligned 1"}},
      {"sm_100a", false, {"tcgen05.alloc.cta_group::1", "tcgen05.mma.cta_group::1.kind::f16", "tcgen05.commit.cta_group::1.mbarrier::arrive::one",
                          "tcgen05.ld.sync.aligned.32x32b", "tcgen05.wait::ld", "tcgen05.dealloc.cta_group::1"}},
      {"sm_100a", true, {"tcgen05.mma.cta_group::1.kind::f16", "cp.async.bulk.tensor.2d", "mbarrier.try_wait.parity"}},
  };
  for (const Want& w : wants) {
    CAPTURE(w.target);
    CAPTURE(w.tuned);
    auto ptx = ptx_for(example("gemm/gemm_bf16.tile"), w.target, w.tuned ? tuned() : ir::LowerOptions{});
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    for (const std::string& n : w.needles) {
      CAPTURE(n);
      CHECK(contains(*ptx, n));
    }
  }
}

TEST_CASE("the FP8 gemm example uses fp8 matrix instructions where the target has them") {
  TG_REQUIRE_NVRTC();
  const std::pair<const char*, const char*> wants[] = {
      {"sm_89", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"},
      {"sm_90a", "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3"},
      {"sm_100a", "tcgen05.mma.cta_group::1.kind::f8f6f4"},
  };
  for (const auto& [t, needle] : wants) {
    CAPTURE(t);
    auto ptx = ptx_for(example("quant/gemm_fp8.tile"), t, tuned());
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    CHECK(contains(*ptx, needle));
  }
}

TEST_CASE("reductions use warp shuffles, and fp8 conversions the hardware where it has them") {
  TG_REQUIRE_NVRTC();
  for (const char* t : kTargets) {
    auto ptx = ptx_for(example("softmax/softmax_rows.tile"), t);
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    CHECK(contains(*ptx, "shfl.sync.bfly"));
  }
  std::string fp8 = "kernel q(X: f32[N], Y: e4m3[N]) grid(ceildiv(N, 256)) threads(256) {\n"
                    "  alloc x: fragment f32[256]\n  copy X[bx * 256], x\n  copy x, Y[bx * 256]\n}\n";
  auto p89 = ptx_for(fp8, "sm_89");
  REQUIRE_MESSAGE(p89.is_ok(), p89.status().str());
  CHECK(contains(*p89, "cvt.rn.satfinite.e4m3x2.f32"));
  auto p80 = ptx_for(fp8, "sm_80");
  REQUIRE_MESSAGE(p80.is_ok(), p80.status().str());
  CHECK(!contains(*p80, "e4m3x2"));
}

}  // namespace examples_compile_offline_test
