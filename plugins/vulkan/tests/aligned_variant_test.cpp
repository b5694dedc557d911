// A kernel lowered for aligned tensors (lower.tensor_align, the runtime's usual variant)
// moves vectors without the run-time alignment test and its element-by-element fallback:
// the loop body shrinks (instruction cache is what limits the H200's gemm), and the module
// stays valid. Launches with unaligned tensors get the other variant (runtime tests).
#include "plugins/vulkan/tests/CodegenTestUtil.h"

#include <string>

namespace aligned_variant_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

namespace {

Result<GeneratedShader> generate(const std::string& text, const TargetDescription& t, bool aligned) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(text, "test.tile"));
  ir::LowerOptions o;
  o.tensors_aligned = aligned;
  o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};  // 16-byte vectors
  TG_ASSIGN_OR_RETURN(ir::LowerResult r, ir::lower(k, t, o));
  TG_ASSIGN_OR_RETURN(ir::Kernel lowered, ir::read_lowered(ir::print_kernel(r.kernel)));
  TG_ASSIGN_OR_RETURN(CodegenTarget ct, codegen_target(t));
  return generate_shader(lowered, ct);
}

}  // namespace

TEST_CASE("aligned variants drop the run-time alignment fallback of vector copies") {
  std::string text = example_text("gemm/gemm_f16.tile");
  for (const DeviceCaps& caps : {lavapipe_caps(), h200_caps()}) {
    CAPTURE(caps.name);
    TargetDescription t = describe(caps);
    auto generic = generate(text, t, false);
    auto aligned = generate(text, t, true);
    REQUIRE_MESSAGE(generic.is_ok(), generic.status().str());
    REQUIRE_MESSAGE(aligned.is_ok(), aligned.status().str());
    CHECK(aligned->words.size() < generic->words.size() * 9 / 10);
    std::string verdict = spirv_val(aligned->words);
    if (verdict != "skip") CHECK_MESSAGE(verdict.empty(), verdict);
  }
}

}  // namespace aligned_variant_test
