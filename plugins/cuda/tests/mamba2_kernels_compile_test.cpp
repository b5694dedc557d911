// Mamba-2's chunked scan (examples/mamba2) compiles offline for sm_90a: the chunk states, the
// chunk scan and the fused kernel with their gemms on wgmma (C B^T, the masked decay matrix
// from registers with X, C with the entering state, B scaled with X), and the state passing
// (no gemm, no shared tiles).
#include "plugins/cuda/tests/CudaTest.h"

using namespace tegula;
using namespace tegula::cuda::testing;

TEST_CASE("the Mamba-2 kernels compile for sm_90a, their gemms on wgmma") {
  TG_REQUIRE_NVRTC();
  const std::pair<const char*, bool> builds[] = {{"mamba2/mamba2_chunk_state.tile", true},
                                                 {"mamba2/mamba2_state_passing.tile", false},
                                                 {"mamba2/mamba2_chunk_scan.tile", true},
                                                 {"mamba2/mamba2_ssd.tile", true}};
  for (const auto& [file, gemms] : builds) {
    CAPTURE(file);
    auto ptx = ptx_for(example(file), "sm_90a");
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    CHECK(contains(*ptx, ".target sm_90a"));
    CHECK(contains(*ptx, "wgmma.mma_async.sync.aligned") == gemms);
  }
}
