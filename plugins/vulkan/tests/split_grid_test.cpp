// A grid with more blocks along a dimension than the device's maxComputeWorkGroupCount
// (65535 on lavapipe and many others) runs as several dispatches, each told where its blocks
// start: every block runs once with its own bx, by, bz, as on the reference, along each
// dimension and with a rasterised block order (computed over the whole grid, not one
// dispatch's piece).
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace split_grid_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

/// One thread per block writes a value only that block computes, at the element only that
/// block owns: a block run twice, skipped or given another's index shows.
std::string one_element_per_block(const std::string& owner) {
  return "kernel g(Y: i32[Z, M, N]) grid(N, M, Z) threads(1) {\n"
         "  parallel i in 1 {\n    if bz < Z && by < M && bx < N {\n"
         "      store Y[bz, by, bx] = " + owner + "\n    }\n  }\n}\n";
}

}  // namespace

TEST_CASE("grids larger than the device's group counts match the reference along each dimension") {
  TG_REQUIRE_VULKAN_DEVICE();
  // 65537 and 70001 blocks: one full piece of 65535 and a short one; the other dimensions
  // small, so that each case is a few tens of thousands of one-thread workgroups.
  for (const char* bindings : {"N=70001,M=1,Z=1", "N=2,M=65537,Z=1", "N=1,M=1,Z=65537"}) {
    CAPTURE(bindings);
    RunSpec spec;
    spec.text = one_element_per_block("bx + 3 * by + 7 * bz + 1");
    spec.bindings = bindings;
    CHECK(run_compare(spec) == "");
  }
}

TEST_CASE("a rasterised grid split into several dispatches remaps blocks over the whole grid") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text = "kernel g(Y: i32[M, N]) grid(N, M) threads(1) {\n"
              "  parallel i in 1 {\n    if by < M && bx < N {\n      store Y[by, bx] = bx * 65536 + by + 1\n    }\n  }\n}\n";
  spec.bindings = "N=3,M=65541";
  spec.raster_group = 4;
  CHECK(run_compare(spec) == "");
}

}  // namespace split_grid_test
