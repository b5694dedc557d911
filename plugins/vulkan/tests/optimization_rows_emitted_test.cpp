// The optimization matrix says what the lowering decides (ir/lower/optimizations/); this
// checks what the Vulkan backend then emits. For every row that applies on a Vulkan
// description (an H200's through the NVIDIA driver, lavapipe's), the row's solution kernel,
// generated for that description, holds the SPIR-V instruction that carries the
// optimization (OpCooperativeMatrixMulAddKHR for cooperative matrices, a subgroup shuffle for
// subgroup reductions, a 16-byte load for vectorised access). A row with no instruction of
// its own says why; a row added without an entry here fails.
#include <string>

#include "ir/lower/optimizations/EmittedInstructions.h"
#include "plugins/vulkan/spirv/Listing.h"
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace optimization_rows_emitted_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;
namespace opt = tegula::ir::optimizations;

namespace {

/// Per row: opcode names of spirv_listing, or names the module gives its variables (a
/// tensor's vector view is "<tensor>_x<bytes>", codegen/Copies.cpp), or why there is none.
const opt::EmissionTable& emitted() {
  static const opt::EmissionTable table = {
      {"vector_access", {{"X_x16", "X_x8", "X_x4"}, ""}},
      {"software_pipelining", {{}, "stages through registers: ordinary loads one iteration early (register_prefetch)"}},
      {"register_prefetch", {{}, "ordinary loads, issued one iteration early"}},
      {"rasterised_order", {{}, "a block order: index arithmetic"}},
      {"subgroup_coopmat", {{"OpCooperativeMatrixMulAddKHR"}, ""}},
      {"workgroup_coopmat", {{"OpCooperativeMatrixMulAddKHR"}, ""}},
      {"subgroup_reduce", {{"OpGroupNonUniformShuffleXor", "OpGroupNonUniformFAdd", "OpGroupNonUniformShuffle"}, ""}},
      {"bounds_elision", {{}, "tests removed: an absence, checked by proven_bounds_test"}},
      {"split_k", {{"OpAtomicFAddEXT", "OpAtomicCompareExchange"}, ""}},
      {"padded_shared", {{}, "a shared layout: addresses, no instruction of its own"}},
      {"swizzled_shared", {{}, "a shared layout: addresses, no instruction of its own"}},
  };
  return table;
}

}  // namespace

TEST_CASE("every row that applies on a Vulkan description has its instruction in the SPIR-V") {
  int searched = 0;
  for (const DeviceCaps& caps : {h200_caps(), lavapipe_caps()}) {
    CAPTURE(caps.name);
    TargetDescription t = describe(caps);
    opt::EmissionReport r = opt::check_emitted(t, emitted(), [&](const opt::Optimization& row) -> Result<std::string> {
      TG_ASSIGN_OR_RETURN(GeneratedShader shader, generate_for(row.kernel, t));
      // The listing, and the module's bytes, where OpName's strings are.
      std::string code = spirv_listing(shader.words);
      code.append(reinterpret_cast<const char*>(shader.words.data()), shader.words.size() * 4);
      return code;
    });
    for (const std::string& p : r.problems) FAIL_CHECK(p);
    searched += r.searched;
  }
  CHECK(searched >= 4);
}

}  // namespace optimization_rows_emitted_test
