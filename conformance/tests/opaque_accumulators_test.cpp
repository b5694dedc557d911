// Cooperative-matrix entries (accumulators held opaquely by the device, stored by the
// backend itself) are claimed like any instruction: the suite forces each one and the cases
// lower onto it, never NotSupported for want of a register layout.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "conformance/Suite.h"
#include "core/Json.h"
#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "targets/Target.h"

namespace opaque_accumulators_test {

using namespace tegula;
using namespace tegula::conformance;

namespace {

/// vulkan_generic with an f16 -> f32 16x16x16 cooperative matrix, as a Vulkan device with
/// VK_KHR_cooperative_matrix describes itself.
TargetDescription with_coopmat() {
  auto base = builtin_target("vulkan_generic");
  REQUIRE(base.is_ok());
  auto doc = Json::parse(base->canonical_json);
  REQUIRE(doc.is_ok());
  auto entry = Json::parse(R"({"id": "coopmat.m16n16k16.f16_f32", "kind": "coopmat", "m": 16, "n": 16, "k": 16,
    "dtypes": {"a": "f16", "b": "f16", "c": "f32", "d": "f32"},
    "locations": {"a": ["registers"], "b": ["registers"], "acc": ["registers"]},
    "scope": "subgroup", "group_threads": 32, "issue_threads": 32, "majors": {"a": ["k", "mn"], "b": ["k", "mn"]},
    "layouts": {"a": {"registers": {"layout": "opaque"}}, "b": {"registers": {"layout": "opaque"}},
                "acc": {"registers": {"layout": "opaque"}}},
    "mnemonic": "OpCooperativeMatrixMulAddKHR", "requires": ["cooperative_matrix"], "rate": 512})");
  REQUIRE(entry.is_ok());
  Json doc2 = *doc;
  Json list = Json::array();
  for (const Json& mi : doc2.find("matrix_instructions")->items()) list.push(mi);
  list.push(*entry);
  doc2.set("matrix_instructions", list);
  Json features = Json::array();
  for (const Json& f : doc2.find("features")->items()) features.push(f);
  features.push(Json("cooperative_matrix"));
  features.push(Json("f16"));
  doc2.set("features", features);
  doc2.set("name", Json("vulkan_coopmat_test"));
  auto t = parse_target(doc2.dump(), "test description");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

}  // namespace

TEST_CASE("cooperative-matrix cases are claimed, and lower onto the instruction") {
  TargetDescription t = with_coopmat();
  int claimed = 0, total = 0;
  for (const CaseSpec& c : build_suite(t)) {
    if (c.name.rfind("tegula.gemm.coopmat.m16n16k16.f16_f32.", 0) != 0) continue;
    ++total;
    if (!c.unsupported.empty()) {
      // Only A held in a fragment (the matrices load from shared memory) and a causal mask
      // (a map with idx() needs element positions the opaque matrix hides) are out of reach.
      bool afrag = c.name.find("afrag") != std::string::npos;
      bool causal = c.name.find(".causal") != std::string::npos && c.unsupported.find("idx()") != std::string::npos;
      CHECK_MESSAGE((afrag || causal), c.name << ": " << c.unsupported);
      continue;
    }
    ++claimed;
    auto k = ir::parse_and_verify(c.kernel, c.name);
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    auto lowered = ir::lower(*k, t);
    REQUIRE_MESSAGE(lowered.is_ok(), c.name << ": " << lowered.status().str());
    CHECK_MESSAGE(ir::print_kernel(lowered->kernel).find("coopmat.m16n16k16.f16_f32") != std::string::npos, c.name);
  }
  CHECK(total > 10);
  CHECK(claimed > 10);
}

}  // namespace opaque_accumulators_test
