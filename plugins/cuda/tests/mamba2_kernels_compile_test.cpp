// Mamba-2's chunked scan (examples/mamba2) compiles offline for sm_90a: the fused kernel with
// its four gemms on wgmma (C B^T, the masked decay matrix from registers with X, C with the
// entering state, B scaled with X), and the state passing (no gemm, no shared tiles). The
// fused kernel holds every statement of chunk_state and chunk_scan (each NVRTC compile takes
// seconds, so those two are left to `tegula lower --target sm_90a` and the GPU run).
#include "plugins/cuda/tests/CudaTest.h"

namespace mamba2_kernels_compile_test {

using namespace tegula;
using namespace tegula::cuda::testing;

TEST_CASE("the Mamba-2 kernels compile for sm_90a, their gemms on wgmma") {
  TG_REQUIRE_NVRTC();
  const std::pair<const char*, bool> builds[] = {{"mamba2/mamba2_state_passing.tile", false},
                                                 {"mamba2/mamba2_ssd.tile", true}};
  for (const auto& [file, gemms] : builds) {
    CAPTURE(file);
    auto ptx = ptx_for(example(file), "sm_90a");
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    CHECK(contains(*ptx, ".target sm_90a"));
    CHECK(contains(*ptx, "wgmma.mma_async.sync.aligned") == gemms);
  }
}

}  // namespace mamba2_kernels_compile_test
