// Compile options: min_blocks_per_sm=N reaches the kernel's launch bounds (PTX .minnctapersm),
// and an unknown or malformed option is refused rather than ignored.
#include "plugins/cuda/tests/CudaTest.h"

using namespace tegula;
using namespace tegula::cuda::testing;

static Result<std::string> compile_with(const std::string& lowered, const std::string& options) {
  Plugin& p = Plugin::get();
  std::string json = target_json("sm_90a");
  tg_target_description t{};
  t.struct_size = sizeof t;
  t.format = TG_TARGET_FORMAT_JSON_V1;
  t.data = json.data();
  t.size = json.size();
  tg_compile_request r{};
  r.struct_size = sizeof r;
  r.ir_format = TG_IR_FORMAT_LOWERED_V1;
  r.ir_data = lowered.data();
  r.ir_size = lowered.size();
  r.options = options.c_str();
  tg_blob b{};
  b.struct_size = sizeof b;
  if (tg_error* e = p.api->compile_offline(p.plugin, &t, &r, &b)) {
    tg_status_code code = p.api->error_code(e);
    std::string m = p.take(e);
    return error(code == TG_ERR_INVALID_ARGUMENT ? ErrorCode::InvalidArgument : ErrorCode::Plugin, m);
  }
  return describe(Plugin::blob_bytes(p.api, b));
}

TEST_CASE("min_blocks_per_sm sets the launch bounds; unknown options are errors") {
  TG_REQUIRE_NVRTC();
  auto lowered = lower_text(example("reduce/row_sum.tile"), target("sm_90a"));
  REQUIRE(lowered.is_ok());
  auto two = compile_with(*lowered, "min_blocks_per_sm=2\n");
  REQUIRE_MESSAGE(two.is_ok(), two.status().str());
  CHECK(contains(*two, ".minnctapersm 2"));
  auto bad = compile_with(*lowered, "fast=1\n");
  REQUIRE(!bad.is_ok());
  CHECK(bad.status().code() == ErrorCode::InvalidArgument);
  CHECK(contains(bad.status().message(), "unknown compile option"));
  auto range = compile_with(*lowered, "min_blocks_per_sm=0\n");
  REQUIRE(!range.is_ok());
  CHECK(range.status().code() == ErrorCode::InvalidArgument);
}
