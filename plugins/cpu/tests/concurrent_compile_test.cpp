// The cpu plugin declares TG_CONCURRENT_COMPILE: kernels compiled side by side (each its own
// LLVM context and target machine) give the bytes of compiles alone, link into the one JIT
// side by side, and each computes its own kernel (plugins/support/testing/ConcurrentCompile.h).
#include "plugins/cpu/tests/CpuTestUtil.h"

#include "plugins/support/testing/ConcurrentCompile.h"

namespace concurrent_compile_test {

using namespace tegula;
using namespace tegula::cpu::testing;

TEST_CASE("kernels compile and load side by side on cpu:0") {
  CpuPlugin p;
  Result<plugin_testing::PluginInfo> info = p.plugin->info();
  REQUIRE_MESSAGE(info.is_ok(), info.status().str());
  CHECK((info->concurrency & TG_CONCURRENT_COMPILE) != 0);
  Status s = plugin_testing::check_concurrent_compile(*p.device, p.target(), 8);
  CHECK_MESSAGE(s.is_ok(), s.str());
}

}  // namespace concurrent_compile_test
