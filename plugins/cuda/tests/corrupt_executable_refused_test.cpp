// An executable the plugin did not write, or one altered in any byte, truncated or extended,
// is refused as corrupt (TG_ERR_CORRUPT) rather than run; an intact one describes itself.
#include "plugins/cuda/tests/CudaTest.h"

namespace corrupt_executable_refused_test {

using namespace tegula;
using namespace tegula::cuda::testing;

static tg_status_code describe_code(const std::string& bytes) {
  if (describe(bytes).is_ok()) return TG_OK;
  return plugin_testing::last_code();
}

TEST_CASE("altered executables are refused as corrupt") {
  TG_REQUIRE_NVRTC();
  auto lowered = lower_text(example("reduce/row_sum.tile"), target("sm_90a"));
  REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
  auto blob = compile_offline(*lowered, "sm_90a");
  REQUIRE_MESSAGE(blob.is_ok(), blob.status().str());
  const std::string& good = *blob;
  CHECK(describe_code(good) == TG_OK);
  auto text = describe(good);
  REQUIRE(text.is_ok());
  CHECK(contains(*text, "tg_row_sum"));
  CHECK(contains(*text, ".entry tg_row_sum"));

  // Every region: magic, version, length, digest, each section's length and contents.
  for (size_t at : std::vector<size_t>{0, 7, 8, 16, 24, 40, 56, 64, 70, good.size() / 2, good.size() - 1}) {
    std::string bad = good;
    bad[at] = char(bad[at] ^ 0x5a);
    CAPTURE(at);
    CHECK(describe_code(bad) == TG_ERR_CORRUPT);
  }
  CHECK(describe_code(good.substr(0, good.size() - 1)) == TG_ERR_CORRUPT);
  CHECK(describe_code(good.substr(0, 30)) == TG_ERR_CORRUPT);
  CHECK(describe_code(good + "x") == TG_ERR_CORRUPT);
  CHECK(describe_code("") == TG_ERR_CORRUPT);
  CHECK(describe_code(std::string("tgrefexe") + std::string(64, '\0')) == TG_ERR_CORRUPT);

  // With a device: executable_load refuses the same bytes, and an executable for another
  // architecture.
  if (Gpu* g = Gpu::get(); g && g->device) {
    std::string bad = good;
    bad[good.size() / 2] ^= 1;
    CHECK_FALSE(g->device->load(bad).is_ok());
    CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
    auto other = compile_offline(*lower_text(example("reduce/row_sum.tile"), target("sm_80")), "sm_80");
    REQUIRE(other.is_ok());
    CHECK_FALSE(g->device->load(*other).is_ok());
    CHECK(plugin_testing::last_code() == TG_ERR_CORRUPT);
  }
}

}  // namespace corrupt_executable_refused_test
