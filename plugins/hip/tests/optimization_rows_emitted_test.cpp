// The optimization matrix says what the lowering decides (ir/lower/optimizations/); this
// checks what the hip backend then emits for gfx942. For every row that applies there, the
// row's solution kernel, compiled offline, holds the AMDGPU instruction that carries the
// optimization (v_mfma_* for MFMA, a cross-lane permute for subgroup reductions, 16-byte
// global accesses for vectorised access). A row with no instruction of its own says why; a
// row added without an entry here fails.
#include <string>

#include "ir/lower/optimizations/EmittedInstructions.h"
#include "plugins/hip/tests/HipTest.h"

namespace optimization_rows_emitted_test {

using namespace tegula;
using namespace tegula::hip::testing;
namespace opt = tegula::ir::optimizations;

namespace {

/// Per row: gfx942 assembly text of which one must appear where the row applies, or why there is none.
const opt::EmissionTable& emitted() {
  static const opt::EmissionTable table = {
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
  opt::EmissionReport r =
      opt::check_emitted(target("gfx942"), emitted(), [](const opt::Optimization& row) { return assembly_for(row.kernel); });
  for (const std::string& p : r.problems) FAIL_CHECK(p);
  CHECK(r.searched >= 2);
}

}  // namespace optimization_rows_emitted_test
