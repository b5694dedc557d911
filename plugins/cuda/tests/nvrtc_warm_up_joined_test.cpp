// Where a driver library loads, init starts NVRTC on a thread of its own (Plugin.cpp,
// start_nvrtc_warm_up) and shutdown joins it: a runtime opened and closed at once, while the
// warm-up still runs, ends cleanly (an unjoined std::thread would terminate the process).
// Here the "driver" is libm: it loads, lacks cuInit, so the plugin has no devices.
#include <cstdlib>

#include "plugins/cuda/tests/CudaTest.h"
#include "runtime/include/tegula/tegula.hpp"

namespace nvrtc_warm_up_joined_test {

tegula::Result<tegula::Runtime> open_cuda_only() {
  tegula::RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/cuda.json"};
  o.ignore_environment = true;
  o.cache_dir = "off";
  return tegula::Runtime::open(o);
}

TEST_CASE("a runtime closed while NVRTC warms up shuts the plugin down cleanly") {
  TG_REQUIRE_NVRTC();
  setenv("TEGULA_CUDA_DRIVER", "libm.so.6", 1);
  for (const char* warm_up : {"1", "0"}) {
    CAPTURE(warm_up);
    setenv("TEGULA_CUDA_NVRTC_WARM_UP", warm_up, 1);
    for (int i = 0; i < 3; ++i) {
      auto rt = open_cuda_only();
      REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
      CHECK(rt->devices().empty());
    }
  }
  unsetenv("TEGULA_CUDA_NVRTC_WARM_UP");
  unsetenv("TEGULA_CUDA_DRIVER");
}

}  // namespace nvrtc_warm_up_joined_test
