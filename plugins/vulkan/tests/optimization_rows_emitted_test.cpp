// The optimization matrix says what the lowering decides (ir/lower/optimizations/); this
// checks what the Vulkan backend then emits. For every row that applies on a Vulkan
// description (an H200's through the NVIDIA driver, lavapipe's), the row's solution kernel,
// generated for that description, holds the SPIR-V instruction that carries the
// optimization (OpCooperativeMatrixMulAddKHR for cooperative matrices, a subgroup shuffle for
// subgroup reductions, a 16-byte load for vectorised access). A row with no instruction of
// its own says why; a row added without an entry here fails.
#include <map>
#include <string>
#include <vector>

#include "ir/lower/optimizations/Optimizations.h"
#include "plugins/vulkan/spirv/Listing.h"
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace optimization_rows_emitted_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;
namespace opt = tegula::ir::optimizations;

namespace {

struct Emits {
  /// Opcode names of spirv_listing, or names the module gives its variables (a tensor's
  /// vector view is "<tensor>_x<bytes>", codegen/Copies.cpp), one of which must appear.
  std::vector<std::string> any_of;
  std::string none_because;
};

const std::map<std::string, Emits>& emitted() {
  static const std::map<std::string, Emits> table = {
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
  int checked = 0;
  for (const DeviceCaps& caps : {h200_caps(), lavapipe_caps()}) {
    TargetDescription t = describe(caps);
    for (const opt::Optimization* row : opt::all_optimizations()) {
      CAPTURE(caps.name);
      CAPTURE(row->id);
      opt::Cell cell = opt::evaluate(*row, t);
      if (cell.state != opt::CellState::Applies) continue;
      auto entry = emitted().find(row->id);
      REQUIRE_MESSAGE(entry != emitted().end(), "row " << row->id << " applies on " << t.name << ": say what Vulkan emits for it here");
      if (entry->second.any_of.empty()) {
        CHECK(!entry->second.none_because.empty());
        continue;
      }
      auto shader = generate_for(row->kernel, t);
      REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
      // The listing, and the module's bytes, where OpName's strings are.
      std::string listing = spirv_listing(shader->words);
      listing.append(reinterpret_cast<const char*>(shader->words.data()), shader->words.size() * 4);
      bool found = false;
      for (const std::string& p : entry->second.any_of) found = found || listing.find(p) != std::string::npos;
      CHECK_MESSAGE(found, "the SPIR-V of row " << row->id << " on " << t.name << " has none of its instructions (lowering's marker: "
                                                << cell.reason << ")");
      ++checked;
    }
  }
  CHECK(checked >= 4);
}

}  // namespace optimization_rows_emitted_test
