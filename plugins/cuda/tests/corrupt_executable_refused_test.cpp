// An executable the plugin did not write, or one altered in any byte, truncated or extended,
// is refused as corrupt (TG_ERR_CORRUPT) rather than run; an intact one describes itself.
#include "plugins/cuda/tests/CudaTest.h"

using namespace tegula;
using namespace tegula::cuda::testing;

static tg_status_code describe_code(const std::string& bytes) {
  Plugin& p = Plugin::get();
  tg_blob b{};
  b.struct_size = sizeof b;
  tg_error* e = p.api->executable_describe(p.plugin, bytes.data(), bytes.size(), &b);
  if (!e) {
    p.api->blob_release(&b);
    return TG_OK;
  }
  tg_status_code c = p.api->error_code(e);
  p.api->error_destroy(e);
  return c;
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
    Plugin& p = Plugin::get();
    std::string bad = good;
    bad[good.size() / 2] ^= 1;
    tg_executable* exe = nullptr;
    tg_error* e = p.api->executable_load(g->device, bad.data(), bad.size(), &exe);
    REQUIRE(e);
    CHECK(p.api->error_code(e) == TG_ERR_CORRUPT);
    p.api->error_destroy(e);
    auto other = compile_offline(*lower_text(example("reduce/row_sum.tile"), target("sm_80")), "sm_80");
    REQUIRE(other.is_ok());
    e = p.api->executable_load(g->device, other->data(), other->size(), &exe);
    REQUIRE(e);
    CHECK(p.api->error_code(e) == TG_ERR_CORRUPT);
    p.api->error_destroy(e);
  }
}
