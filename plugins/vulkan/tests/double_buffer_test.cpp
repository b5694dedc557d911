// Pipelined loops declared with stages >= 2 that load ahead into registers alternate between
// two stages of their shared tiles when the lowering plans it (plan.stages=2,
// layout.stages=2; DoubleBuffer.cpp emits it): one workgroup barrier per iteration instead of
// two, the same results as the reference for every trip count (1, 2, odd, partial last tiles,
// static shapes whose bounds checks are proven away and static shapes where they are not), one
// stage where a tile is used outside the loop or the loop asks for one, and one stage when two
// do not fit the description's shared memory.
#include "plugins/vulkan/tests/CodegenTestUtil.h"
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <sstream>
#include <string>
#include <vector>

#include "ir/Analysis.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "plugins/vulkan/spirv/Listing.h"

namespace double_buffer_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

namespace {

/// C = A * B with 32x32 block tiles walking K in steps of 16. Shapes are symbols unless
/// given; `after` runs after the loop.
std::string gemm(const std::string& m, const std::string& n, const std::string& k, const std::string& after = "", int stages = 2) {
  return "kernel g(A: f16[" + m + ", " + k + "], B: f16[" + k + ", " + n + "], C: f32[" + m + ", " + n + "]) grid(ceildiv(" + n +
         ", 32), ceildiv(" + m + ", 32)) threads(64) {\n"
         "  alloc As: shared f16[32, 16]\n  alloc Bs: shared f16[16, 32]\n  alloc Acc: fragment f32[32, 32]\n"
         "  fill Acc, 0.0\n  pipelined kk in 0 .. ceildiv(" + k + ", 16), stages=" + std::to_string(stages) + " {\n"
         "    copy A[by * 32, kk * 16], As\n    copy B[kk * 16, bx * 32], Bs\n"
         "    gemm As, Bs, Acc, accumulate=true\n  }\n" + after + "  copy Acc, C[by * 32, bx * 32]\n}\n";
}

/// The stages the lowering planned for the first pipelined loop (plan.stages).
int64_t planned_stages(const std::string& text, const TargetDescription& t) {
  auto k = lower_for(text, t);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  const ir::Stmt* loop = nullptr;
  ir::for_each_stmt(k->body, [&](const ir::Stmt& s) {
    if (!loop && s.op == ir::OpKind::Pipelined) loop = &s;
  });
  REQUIRE(loop);
  auto plan = ir::get_pipeline_plan(*loop);
  REQUIRE(plan.is_ok());
  return plan->stages;
}

/// The OpControlBarrier instructions inside the module's first loop (in the plugin's own
/// listing or spirv-dis's).
int barriers_in_first_loop(const std::vector<uint32_t>& words) {
  std::istringstream lines(spirv_text(words));
  std::string line, merge;
  int count = 0;
  while (std::getline(lines, line)) {
    std::istringstream tokens(line);
    std::vector<std::string> t;
    for (std::string w; tokens >> w;) t.push_back(w[0] == '%' ? w.substr(1) : w);
    if (t.empty()) continue;
    if (merge.empty()) {
      if (t[0] == "OpLoopMerge" && t.size() > 1) merge = t[1];
      continue;
    }
    bool label = (t[0] == "OpLabel" && t.size() > 1 && t[1] == merge) || (t.size() == 3 && t[0] == merge && t[2] == "OpLabel");
    if (label) return count;
    if (t[0] == "OpControlBarrier") ++count;
  }
  return -1;
}

/// The bytes of one stage of As and Bs as the lowering lays them out for the target.
int64_t operand_tile_bytes(const std::string& text, const TargetDescription& t) {
  auto k = lower_for(text, t);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  int64_t bytes = 0;
  for (const ir::Stmt& s : k->body.stmts) {
    if (s.op != ir::OpKind::Alloc || (s.name != "As" && s.name != "Bs")) continue;
    auto l = ir::get_shared_layout(s.attrs);
    REQUIRE(l.is_ok());
    bytes += ir::shared_stage_bytes(*l, s.type.shape, s.type.dtype);
  }
  return bytes;
}

}  // namespace

TEST_CASE("a double-buffered loop has one barrier per iteration and two stages of its tiles") {
  for (const DeviceCaps& caps : {lavapipe_caps(), h200_caps()}) {
    CAPTURE(caps.name);
    TargetDescription t = describe(caps);
    auto one = generate_for(gemm("M", "N", "K", "", 1), t);
    auto two = generate_for(gemm("M", "N", "K"), t);
    REQUIRE_MESSAGE(one.is_ok(), one.status().str());
    REQUIRE_MESSAGE(two.is_ok(), two.status().str());
    CHECK(planned_stages(gemm("M", "N", "K"), t) == 2);
    CHECK(barriers_in_first_loop(one->words) == 2);
    CHECK(barriers_in_first_loop(two->words) == 1);
    // As and Bs once more.
    CHECK(two->iface.shared_bytes == one->iface.shared_bytes + operand_tile_bytes(gemm("M", "N", "K"), t));
    std::string verdict = spirv_val(two->words);
    if (verdict != "skip") CHECK_MESSAGE(verdict.empty(), verdict);
  }
}

TEST_CASE("a tile read after the loop keeps one stage") {
  TargetDescription t = describe(lavapipe_caps());
  std::string after = "  fill Acc, 0.0\n  gemm As, Bs, Acc, accumulate=true\n";
  auto one = generate_for(gemm("M", "N", "K", after, 1), t);
  auto two = generate_for(gemm("M", "N", "K", after), t);
  REQUIRE_MESSAGE(two.is_ok(), two.status().str());
  REQUIRE_MESSAGE(one.is_ok(), one.status().str());
  CHECK(planned_stages(gemm("M", "N", "K", after), t) == 1);
  CHECK(two->iface.shared_bytes == one->iface.shared_bytes);
  CHECK(barriers_in_first_loop(two->words) == 2);
}

TEST_CASE("a loop declared with one stage keeps one stage") {
  TargetDescription t = describe(h200_caps());
  auto declared = generate_for(gemm("M", "N", "K", "", 1), t);
  auto two = generate_for(gemm("M", "N", "K"), t);
  REQUIRE_MESSAGE(declared.is_ok(), declared.status().str());
  REQUIRE_MESSAGE(two.is_ok(), two.status().str());
  CHECK(planned_stages(gemm("M", "N", "K", "", 1), t) == 1);
  CHECK(declared->iface.shared_bytes + operand_tile_bytes(gemm("M", "N", "K"), t) == two->iface.shared_bytes);
  CHECK(barriers_in_first_loop(declared->words) == 2);
}

TEST_CASE("two stages that do not fit the target's shared memory fall back to one") {
  TargetDescription t = describe(h200_caps());
  auto one = generate_for(gemm("M", "N", "K", "", 1), t);
  REQUIRE_MESSAGE(one.is_ok(), one.status().str());
  // A description with exactly the one-stage kernel's shared memory.
  TargetDescription small = t;
  small.shared_memory_per_block = one->iface.shared_bytes;
  CHECK(planned_stages(gemm("M", "N", "K"), small) == 1);
  auto fitted = generate_for(gemm("M", "N", "K"), small);
  REQUIRE_MESSAGE(fitted.is_ok(), fitted.status().str());
  CHECK(fitted->iface.shared_bytes == one->iface.shared_bytes);
  CHECK(barriers_in_first_loop(fitted->words) == 2);
}

TEST_CASE("double-buffered gemms match the reference for every trip count") {
  TG_REQUIRE_VULKAN_DEVICE();
  struct Case {
    const char *m, *n, *k, *bindings;
  };
  // K = 16, 32, 48, 80: 1, 2, 3 and 5 iterations; K = 37: a partial last step; fixed shapes
  // that divide the tiles (no bounds checks left) and that do not (checks kept).
  const Case cases[] = {{"M", "N", "K", "M=32,N=32,K=16"}, {"M", "N", "K", "M=64,N=32,K=32"},  {"M", "N", "K", "M=33,N=70,K=48"},
                        {"M", "N", "K", "M=45,N=70,K=37"}, {"M", "N", "K", "M=32,N=64,K=80"},  {"64", "64", "48", ""},
                        {"50", "40", "80", ""},            {"96", "32", "16", ""}};
  for (const Case& c : cases) {
    CAPTURE(c.m);
    CAPTURE(c.n);
    CAPTURE(c.k);
    CAPTURE(c.bindings);
    RunSpec spec;
    spec.text = gemm(c.m, c.n, c.k);
    spec.bindings = c.bindings;
    spec.tol = ulp_tolerance(DType::F32, 64, 1e-5);
    CHECK(run_compare(spec) == "");
  }
}

}  // namespace double_buffer_test
