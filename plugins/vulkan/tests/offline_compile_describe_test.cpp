// compile_offline generates SPIR-V for a description without its device (here an H200's,
// with cooperative matrices), the same bytes twice, and executable_describe shows its
// instructions: the gemm example uses OpCooperativeMatrixMulAddKHR there and fma on lavapipe.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace offline_compile_describe_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

TEST_CASE("offline compilation for an H200 description emits cooperative-matrix code") {
  VulkanPlugin p;
  std::string json = device_target_json(h200_caps());
  auto t = parse_target(json, "h200");
  REQUIRE(t.is_ok());
  std::string ir = lowered_text(example_text("gemm/gemm_f16.tile"), *t);
  CHECK(ir.find("layout.opaque") != std::string::npos);
  std::string blob = p.compile_offline(json, ir);
  REQUIRE(!blob.empty());
  CHECK(p.compile_offline(json, ir) == blob);
  auto described = p.plugin->describe(blob);
  REQUIRE_MESSAGE(described.is_ok(), described.status().str());
  const std::string& listing = *described;
  CHECK(listing.find("OpCooperativeMatrixMulAddKHR") != std::string::npos);
  CHECK(listing.find("OpCooperativeMatrixLoadKHR") != std::string::npos);
  CHECK(listing.find("kernel gemm_f16") != std::string::npos);
}

TEST_CASE("offline compilation refuses IR lowered for another description, and other backends' targets") {
  VulkanPlugin p;
  std::string h200 = device_target_json(h200_caps()), lvp = device_target_json(lavapipe_caps());
  auto t = parse_target(lvp, "lavapipe");
  REQUIRE(t.is_ok());
  std::string ir = lowered_text(example_text("reduce/row_sum.tile"), *t);
  tg_status_code c = TG_OK;
  CHECK(p.compile_offline(h200, ir, &c).empty());
  CHECK(c == TG_ERR_INVALID_ARGUMENT);
  auto sm90 = builtin_target("sm_90a");
  REQUIRE(sm90.is_ok());
  CHECK(p.compile_offline(sm90->canonical_json, lowered_text(example_text("reduce/row_sum.tile"), *sm90), &c).empty());
  CHECK(c == TG_ERR_UNSUPPORTED);
  CHECK(p.compile_offline(lvp, "kernel broken(", &c).empty());
  CHECK(c == TG_ERR_COMPILE);
}

}  // namespace offline_compile_describe_test
