// The optimization matrix says what the lowering decides (ir/lower/optimizations/); this
// checks what the hip backend then emits for gfx942. For every row that applies there, the
// row's solution kernel, compiled offline, holds the AMDGPU instruction that carries the
// optimization (v_mfma_* for MFMA, a cross-lane permute for subgroup reductions, 16-byte
// global accesses for vectorised access). A row with no instruction of its own says why; a
// row added without an entry here fails.
#include <map>
#include <string>
#include <vector>

#include "ir/lower/optimizations/Optimizations.h"
#include "plugins/hip/tests/HipTest.h"

namespace optimization_rows_emitted_test {

using namespace tegula;
using namespace tegula::hip::testing;
namespace opt = tegula::ir::optimizations;

namespace {

struct Emits {
  std::vector<std::string> any_of;  ///< assembly text, one of which must appear
  std::string none_because;         ///< no instruction of its own
};

const std::map<std::string, Emits>& emitted() {
  static const std::map<std::string, Emits> table = {
      // The backend writes one access per element; LLVM's load-store vectoriser merges the
      // consecutive ones plan.vec lays out into 8- and 16-byte accesses.
      {"vector_access", {{"global_load_dwordx4", "global_store_dwordx4"}, ""}},
      {"mfma", {{"v_mfma_"}, ""}},
      {"subgroup_reduce", {{"ds_bpermute_b32", "ds_swizzle_b32", "v_mov_b32_dpp", "_dpp"}, ""}},
      {"rasterised_order", {{}, "a block order: index arithmetic"}},
      {"bounds_elision", {{}, "tests removed: an absence"}},
      {"split_k", {{"global_atomic_add_f32", "global_atomic_cmpswap"}, ""}},
  };
  return table;
}

}  // namespace

TEST_CASE("every row that applies on gfx942 has its instruction in the code object") {
  int checked = 0;
  TargetDescription t = target("gfx942");
  for (const opt::Optimization* row : opt::all_optimizations()) {
    CAPTURE(row->id);
    opt::Cell cell = opt::evaluate(*row, t);
    if (cell.state != opt::CellState::Applies) continue;
    auto entry = emitted().find(row->id);
    REQUIRE_MESSAGE(entry != emitted().end(), "row " << row->id << " applies on gfx942: say what the hip backend emits for it here");
    if (entry->second.any_of.empty()) {
      CHECK(!entry->second.none_because.empty());
      continue;
    }
    auto text = assembly_for(row->kernel);
    REQUIRE_MESSAGE(text.is_ok(), text.status().str());
    bool found = false;
    for (const std::string& p : entry->second.any_of) found = found || contains(*text, p);
    CHECK_MESSAGE(found, "the code of row " << row->id << " has none of its instructions (lowering's marker: " << cell.reason << ")");
    ++checked;
  }
  CHECK(checked >= 2);
}

}  // namespace optimization_rows_emitted_test
