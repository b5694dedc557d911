// The int4 (W4A16) kernels compile offline: the examples for sm_80 and sm_90a (the zero-point
// variants for sm_90a), and the H200 benchmark tiles (the GEMV and both GEMMs) for sm_90a with
// the divisibility tegula_bench_cuda lowers them with. The GEMV streams its packed weights
// with 16-byte cp.async vectors and spends no matrix instruction; the GEMMs multiply on wgmma.
#include "plugins/cuda/tests/CudaTest.h"

namespace int4_kernels_compile_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

ir::LowerOptions bench_options(bool gemm) {
  ir::LowerOptions o;
  o.divisibility = {{"N", 16}, {"K", 16}, {"KW", 16}, {"G", 16}};
  if (gemm) o.divisibility["M"] = 16;
  o.raster_group = gemm ? 8 : 0;
  return o;
}

std::string bench_tile(const std::string& name) {
  auto t = read_file(std::string(TEGULA_SOURCE_DIR) + "/bench/cuda/" + name);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

}  // namespace

TEST_CASE("the int4 examples compile for sm_80 and sm_90a") {
  TG_REQUIRE_NVRTC();
  const std::pair<const char*, const char*> builds[] = {
      {"quant/gemv_int4.tile", "sm_80"},  {"quant/gemv_int4.tile", "sm_90a"},    {"quant/gemm_int4.tile", "sm_80"},
      {"quant/gemm_int4.tile", "sm_90a"}, {"quant/gemv_int4_zp.tile", "sm_90a"}, {"quant/gemm_int4_zp.tile", "sm_90a"}};
  for (const auto& [file, t] : builds) {
    CAPTURE(file);
    CAPTURE(t);
    auto ptx = ptx_for(example(file), t);
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    CHECK(contains(*ptx, std::string(".target ") + t));
  }
}

TEST_CASE("the H200 int4 tiles: the GEMV on cp.async vectors without matrix instructions, the GEMM on wgmma") {
  TG_REQUIRE_NVRTC();
  auto gemv = ptx_for(bench_tile("gemv_int4_h200.tile"), "sm_90a", bench_options(false));
  REQUIRE_MESSAGE(gemv.is_ok(), gemv.status().str());
  CHECK(contains(*gemv, "cp.async.cg.shared.global"));
  CHECK_FALSE(contains(*gemv, "wgmma"));
  CHECK_FALSE(contains(*gemv, "mma.sync"));
  for (const char* file : {"gemm_int4_h200.tile", "gemm_int4_f16w_h200.tile"}) {
    CAPTURE(file);
    auto gemm = ptx_for(bench_tile(file), "sm_90a", bench_options(true));
    REQUIRE_MESSAGE(gemm.is_ok(), gemm.status().str());
    CHECK(contains(*gemm, "wgmma.mma_async.sync.aligned"));
    CHECK(contains(*gemm, ".f32.f16.f16"));
  }
}

}  // namespace int4_kernels_compile_test
