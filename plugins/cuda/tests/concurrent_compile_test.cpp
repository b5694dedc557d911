// The cuda plugin declares TG_CONCURRENT_COMPILE: NVRTC compiles of different kernels side by
// side give the bytes of compiles alone (offline, no GPU needed); on a GPU the kernels also
// load side by side (each thread making the context current) and each computes its own
// kernel (plugins/support/testing/ConcurrentCompile.h).
#include "plugins/cuda/tests/CudaTest.h"

#include "plugins/support/testing/ConcurrentCompile.h"
#include "plugins/support/testing/RunCompare.h"

namespace concurrent_compile_test {

using namespace tegula;
using namespace tegula::cuda::testing;

TEST_CASE("the cuda plugin declares TG_CONCURRENT_COMPILE") {
  CudaPlugin& p = CudaPlugin::get();
  REQUIRE_MESSAGE(p.plugin, p.why);
  Result<plugin_testing::PluginInfo> info = p.plugin->info();
  REQUIRE_MESSAGE(info.is_ok(), info.status().str());
  CHECK((info->concurrency & TG_CONCURRENT_COMPILE) != 0);
}

TEST_CASE("gemm kernels compiled offline side by side give the bytes of compiles alone") {
  TG_REQUIRE_NVRTC();
  const char* examples[] = {"gemm/gemm_bf16.tile", "gemm/gemm_f16.tile", "norm/rmsnorm.tile", "softmax/softmax_rows.tile"};
  std::vector<std::string> lowered, alone;
  for (const char* ex : examples) {
    auto l = lower_text(example(ex), target("sm_90a"));
    REQUIRE_MESSAGE(l.is_ok(), l.status().str());
    auto blob = compile_offline(*l, "sm_90a");
    REQUIRE_MESSAGE(blob.is_ok(), blob.status().str());
    lowered.push_back(*l);
    alone.push_back(*blob);
  }
  std::vector<Result<std::string>> together(lowered.size(), Result<std::string>(std::string()));
  plugin_testing::run_together(lowered.size(), [&](size_t i) { together[i] = compile_offline(lowered[i], "sm_90a"); });
  for (size_t i = 0; i < lowered.size(); ++i) {
    CAPTURE(examples[i]);
    REQUIRE_MESSAGE(together[i].is_ok(), together[i].status().str());
    CHECK(*together[i] == alone[i]);
  }
}

TEST_CASE("gpu: kernels compile and load side by side on cuda:0") {
  CudaPlugin& p = CudaPlugin::get();
  Gpu* g = Gpu::get();
  if (!g || !g->device) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  Result<TargetDescription> t = plugin_testing::resolve_target(*p.plugin, 0);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  Status s = plugin_testing::check_concurrent_compile(*g->device, *t, 8);
  CHECK_MESSAGE(s.is_ok(), s.str());
}

}  // namespace concurrent_compile_test
