// The cooperative-matrix rows: not applicable on the generic Vulkan description (no device
// reported matrices), applied on descriptions whose catalogue has subgroup or workgroup
// entries, as a Vulkan device reports them.
#include "core/Files.h"
#include "ir/lower/optimizations/tests/RowCases.h"

namespace cooperative_matrix_rows_test {

using namespace tegula;
using namespace tegula::ir::optimizations;
using namespace tegula::ir::optimizations::testing;

namespace {

/// vulkan_generic with one more catalogue entry and the cooperative_matrix feature.
TargetDescription vulkan_with(const std::string& entry) {
  auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/targets/descriptions/vulkan_generic.json");
  REQUIRE(text.is_ok());
  std::string json = *text;
  const std::string list = "\"matrix_instructions\": [";
  auto pos = json.find(list);
  REQUIRE(pos != std::string::npos);
  json.insert(pos + list.size(), "\n    " + entry + ",\n");
  const std::string features = "\"features\": [\"subgroup_ops\", \"register_prefetch\"]";
  auto feat = json.find(features);
  REQUIRE(feat != std::string::npos);
  json.replace(feat, features.size(),
               "\"features\": [\"subgroup_ops\", \"register_prefetch\", \"cooperative_matrix\"]");
  auto t = parse_target(json, "coopmat_test.json");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

const char* kSubgroupEntry = R"({
      "id": "coopmat.m16n16k16.f16_f32", "kind": "coopmat", "m": 16, "n": 16, "k": 16,
      "dtypes": {"a": "f16", "b": "f16", "c": "f32", "d": "f32"},
      "locations": {"a": ["registers"], "b": ["registers"], "acc": ["registers"]},
      "scope": "subgroup", "group_threads": 32, "issue_threads": 32,
      "majors": {"a": ["k", "mn"], "b": ["k", "mn"]},
      "layouts": {"a": {"registers": {"layout": "opaque"}}, "b": {"registers": {"layout": "opaque"}},
                  "acc": {"registers": {"layout": "opaque"}}},
      "mnemonic": "OpCooperativeMatrixMulAddKHR", "requires": ["cooperative_matrix"], "rate": 512
    })";

const char* kWorkgroupEntry = R"({
      "id": "coopmat.wg128.f16_f32", "kind": "coopmat",
      "m": {"min": 32, "max": 256, "step": 32}, "n": {"min": 32, "max": 256, "step": 32}, "k": {"min": 16, "max": 64, "step": 16},
      "dtypes": {"a": "f16", "b": "f16", "c": "f32", "d": "f32"},
      "locations": {"a": ["global"], "b": ["global"], "acc": ["registers"]},
      "scope": "cta", "group_threads": 128, "issue_threads": 128,
      "majors": {"a": ["k"], "b": ["mn"]},
      "layouts": {"a": {"global": {"layout": "opaque"}}, "b": {"global": {"layout": "opaque"}},
                  "acc": {"registers": {"layout": "opaque"}}},
      "mnemonic": "OpCooperativeMatrixMulAddKHR", "requires": ["cooperative_matrix"], "rate": 2048
    })";

}  // namespace

TEST_CASE("no cooperative matrices on the generic Vulkan description, with the reason") {
  check_not_applicable("subgroup_coopmat", "vulkan_generic", "no subgroup-scope coopmat instruction");
  check_not_applicable("workgroup_coopmat", "vulkan_generic", "no workgroup-scope (cta) coopmat instruction");
  check_not_applicable("subgroup_coopmat", "sm_90a", "no subgroup-scope coopmat instruction");
}

TEST_CASE("a device reporting subgroup matrices gets opaque accumulators") {
  TargetDescription t = vulkan_with(kSubgroupEntry);
  Cell c = cell_on("subgroup_coopmat", t);
  INFO(c.reason);
  CHECK(c.state == CellState::Applies);
  CHECK(c.reason.find("layout.opaque=\"coopmat.m16n16k16.f16_f32\"") != std::string::npos);
  // Subgroup entries are not workgroup ones.
  CHECK(cell_on("workgroup_coopmat", t).state == CellState::NotApplicable);
}

TEST_CASE("a device reporting workgroup matrices loads the operands from the tensors and forwards the copies") {
  TargetDescription t = vulkan_with(kWorkgroupEntry);
  Cell c = cell_on("workgroup_coopmat", t);
  INFO(c.reason);
  CHECK(c.state == CellState::Applies);
  CHECK(c.reason.find("mma.a=global, mma.b=global") != std::string::npos);
  CHECK(c.reason.find("plan.forward=") != std::string::npos);
}

TEST_CASE("a device with both kinds (the H200's Vulkan driver) shows each row on its own kind of matrix") {
  TargetDescription t = vulkan_with(std::string(kWorkgroupEntry) + ",\n    " + kSubgroupEntry);
  Cell sub = cell_on("subgroup_coopmat", t);
  INFO(sub.reason);
  CHECK(sub.state == CellState::Applies);
  CHECK(sub.reason.find("mma.inst=\"coopmat.m16n16k16.f16_f32\"") != std::string::npos);
  Cell wg = cell_on("workgroup_coopmat", t);
  INFO(wg.reason);
  CHECK(wg.state == CellState::Applies);
  CHECK(wg.reason.find("mma.inst=\"coopmat.wg128.f16_f32\"") != std::string::npos);
}

}  // namespace cooperative_matrix_rows_test
