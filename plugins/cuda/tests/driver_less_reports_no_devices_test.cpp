// A machine without the CUDA driver (here: the driver path pointed at nothing) loads the
// plugin, reports 0 devices without an error, refuses device calls with NOT_FOUND, and still
// compiles offline.
#include <cstdlib>

#include "plugins/cuda/tests/CudaTest.h"
#include "runtime/include/tegula/tegula.hpp"

namespace driver_less_reports_no_devices_test {

using namespace tegula::cuda::testing;

TEST_CASE("without a driver the plugin reports no devices and no error") {
  setenv("TEGULA_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  CudaPlugin& p = CudaPlugin::get();
  REQUIRE_MESSAGE(p.plugin, p.why);
  CHECK(p.why.empty());
  CHECK(p.devices == 0);
  CHECK_FALSE(p.plugin->device_properties(0).is_ok());
  CHECK(tegula::plugin_testing::last_code() == TG_ERR_NOT_FOUND);
  tg_device* d = nullptr;
  CHECK(p.plugin->code(p.api()->device_open(p.handle(), 0, &d)) == TG_ERR_NOT_FOUND);
  CHECK(d == nullptr);

  TG_REQUIRE_NVRTC();
  auto ptx = ptx_for(example("elementwise/silu_mul.tile"), "sm_80");
  REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
  CHECK(contains(*ptx, ".target sm_80"));
}

TEST_CASE("the runtime lists no cuda device and opens fine") {
  setenv("TEGULA_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  tegula::RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/cuda.json"};
  o.ignore_environment = true;
  o.cache_dir = "off";
  auto rt = tegula::Runtime::open(o);
  REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
  CHECK(rt->devices().empty());
  CHECK(rt->skipped().empty());
  CHECK(!rt->find_device("cuda").is_ok());
}

}  // namespace driver_less_reports_no_devices_test
