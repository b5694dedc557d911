// The optimization matrix says what the lowering decides (ir/lower/optimizations/); this
// checks what the CUDA backend then emits. For every row that applies on a CUDA target, the
// row's solution kernel, lowered and compiled offline for that target, holds the PTX
// instruction that carries the optimization (cp.async.bulk.tensor for the tensor copy
// engine, wgmma.mma_async for wgmma, ...). A row with no instruction of its own (a shared
// layout, a block order) says why; a row added without an entry here fails, so the matrix
// never claims for CUDA what its code does not do.
#include <string>

#include "ir/lower/optimizations/EmittedInstructions.h"
#include "plugins/cuda/tests/CudaTest.h"

namespace optimization_rows_emitted_test {

using namespace tegula;
using namespace tegula::cuda::testing;
namespace opt = tegula::ir::optimizations;

namespace {

/// Per row: PTX text of which one must appear where the row applies, or why there is none.
const opt::EmissionTable& emitted() {
  static const opt::EmissionTable table = {
      {"vector_access", {{"ld.global.v4", "ld.global.nc.v4", "st.global.v4"}, ""}},
      {"async_copy", {{"cp.async.cg.shared.global", "cp.async.ca.shared.global"}, ""}},
      {"bulk_tensor_copy", {{"cp.async.bulk.tensor"}, ""}},
      {"swizzled_shared", {{}, "a shared layout: addresses, no instruction of its own"}},
      {"padded_shared", {{}, "a shared layout: addresses, no instruction of its own"}},
      {"software_pipelining", {{"cp.async.wait_group", "mbarrier.try_wait"}, ""}},
      {"register_prefetch", {{}, "loads issued one iteration early: ordinary loads"}},
      {"rasterised_order", {{}, "a block order: index arithmetic"}},
      {"split_k", {{"red.global.add", "atom.global.add"}, ""}},
      {"ldmatrix", {{"ldmatrix.sync.aligned"}, ""}},
      {"stmatrix", {{"stmatrix.sync.aligned"}, ""}},
      {"mma_sync", {{"mma.sync.aligned"}, ""}},
      {"wgmma", {{"wgmma.mma_async"}, ""}},
      {"wgmma_register_a", {{"wgmma.mma_async"}, ""}},
      {"wgmma_overlap", {{"wgmma.wait_group.sync.aligned 1"}, ""}},
      {"warp_specialisation", {{"setmaxnreg"}, ""}},
      {"tcgen05", {{"tcgen05.mma"}, ""}},
      {"block_scaled_mma", {{"block_scale"}, ""}},
      {"subgroup_reduce", {{"shfl.sync.bfly"}, ""}},
      {"bounds_elision", {{}, "tests removed: an absence, checked by proven_bounds_test"}},
      {"subgroup_coopmat", {{}, "a Vulkan instruction family"}},
      {"workgroup_coopmat", {{}, "a Vulkan instruction family"}},
      {"mfma", {{}, "an AMD instruction family"}},
  };
  return table;
}

}  // namespace

TEST_CASE("every row that applies on a CUDA target has its instruction in the PTX") {
  int searched = 0;
  for (const char* tname : {"sm_80", "sm_89", "sm_90a", "sm_100a"}) {
    CAPTURE(tname);
    opt::EmissionReport r = opt::check_emitted(target(tname), emitted(), [&](const opt::Optimization& row) {
      ir::LowerOptions o;
      o.raster_group = row.raster_group;
      return ptx_for(row.kernel, tname, o);
    });
    for (const std::string& p : r.problems) FAIL_CHECK(p);
    searched += r.searched;
  }
  CHECK(searched >= 20);
}

}  // namespace optimization_rows_emitted_test
