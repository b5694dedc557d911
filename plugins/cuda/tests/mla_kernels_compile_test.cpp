// The MLA decode kernels (examples/mla) compile offline for sm_90a, where their 144 KiB of
// tiles fit: the score and value gemms on wgmma, the paged split addressing its pages through
// the block table; the combine (no shared tiles) for sm_80 too. The H200 bench tile (keys 32 a
// step, two stages) streams the cache with cp.async; the 64-key examples do not fit sm_80
// (163 KiB a block), and the lowering says so.
#include "plugins/cuda/tests/CudaTest.h"

namespace mla_kernels_compile_test {

using namespace tegula;
using namespace tegula::cuda::testing;

TEST_CASE("the MLA decode examples compile for sm_90a on wgmma; the combine for sm_80 too") {
  TG_REQUIRE_NVRTC();
  // mla_decode.tile is the split's body over one range, so the split stands for it (each
  // NVRTC compile of these takes seconds).
  const std::pair<const char*, const char*> builds[] = {{"mla/mla_decode_split.tile", "sm_90a"},
                                                        {"mla/mla_decode_paged_split.tile", "sm_90a"},
                                                        {"mla/mla_combine.tile", "sm_80"}};
  for (const auto& [file, t] : builds) {
    CAPTURE(file);
    CAPTURE(t);
    auto ptx = ptx_for(example(file), t);
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    CHECK(contains(*ptx, std::string(".target ") + t));
    if (std::string(file) != "mla/mla_combine.tile") CHECK(contains(*ptx, "wgmma.mma_async.sync.aligned"));
  }
}

TEST_CASE("the 64-key MLA split does not fit sm_80's shared memory, and says so") {
  TG_REQUIRE_NVRTC();
  auto ptx = ptx_for(example("mla/mla_decode_split.tile"), "sm_80");
  REQUIRE_FALSE(ptx.is_ok());
  CHECK(contains(ptx.status().message(), "bytes of shared memory"));
}

TEST_CASE("the H200 MLA split tile streams the cache by cp.async on wgmma") {
  TG_REQUIRE_NVRTC();
  auto t = read_file(std::string(TEGULA_SOURCE_DIR) + "/bench/cuda/mla_decode_split_h200.tile");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  ir::LowerOptions o;
  o.divisibility = {{"L", 64}, {"H", 64}};
  auto h200 = ptx_for(*t, "sm_90a", o);
  REQUIRE_MESSAGE(h200.is_ok(), h200.status().str());
  CHECK(contains(*h200, "cp.async.cg.shared.global"));
  CHECK(contains(*h200, "wgmma.mma_async.sync.aligned"));
}

}  // namespace mla_kernels_compile_test
