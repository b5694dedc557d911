// The shared-layout rows: swizzles for descriptor instructions, padded rows where banks are
// declared, shuffle reductions within every target's subgroup.
#include "ir/lower/optimizations/tests/RowCases.h"

namespace shared_layout_rows_test {

using namespace tegula::ir::optimizations::testing;

TEST_CASE("swizzled shared layouts apply for wgmma and tcgen05 descriptors, not on targets without descriptors") {
  check_applies("swizzled_shared", "sm_90a", "layout.swizzle=[2, 4, 3]");
  check_applies("swizzled_shared", "sm_100a", "layout.swizzle=");
  check_not_applicable("swizzled_shared", "sm_80",
                       "no matrix instruction reads shared memory through a swizzled descriptor");
  check_not_applicable("swizzled_shared", "gfx942", "swizzled descriptor");
}

TEST_CASE("padded shared layouts apply where the description declares banks") {
  check_applies("padded_shared", "sm_80", "layout.pad=4");
  check_applies("padded_shared", "sm_90a", "layout.pad=4");
  check_applies("padded_shared", "gfx950", "layout.pad=");
  check_not_applicable("padded_shared", "gfx942", "no shared_memory_banks");
  check_not_applicable("padded_shared", "vulkan_generic", "no shared_memory_banks");
}

TEST_CASE("reductions shuffle within the subgroup on every target: warps, waves, Vulkan subgroups, vector lanes") {
  check_applies("subgroup_reduce", "sm_80", "plan.shuffle=");
  check_applies("subgroup_reduce", "gfx942", "plan.shuffle=");
  check_applies("subgroup_reduce", "vulkan_generic", "plan.shuffle=");
  check_applies("subgroup_reduce", "host_cpu", "plan.shuffle=[1, 2, 4]");  // 8 vector lanes
}

}  // namespace shared_layout_rows_test
