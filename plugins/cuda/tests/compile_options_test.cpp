// Compile options: min_blocks_per_sm=N reaches the kernel's launch bounds (PTX .minnctapersm),
// and an unknown or malformed option is refused rather than ignored.
#include "plugins/cuda/tests/CudaTest.h"

namespace compile_options_test {

using namespace tegula;
using namespace tegula::cuda::testing;

static Result<std::string> compile_with(const std::string& lowered, const std::string& options) {
  TG_ASSIGN_OR_RETURN(std::string blob, compile_offline_json(lowered, target_json("sm_90a"), options));
  return describe(blob);
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

}  // namespace compile_options_test
