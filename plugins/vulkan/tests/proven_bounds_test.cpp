// Global tiles whose origins provably keep them inside a static tensor (block indices
// bounded by a constant grid, loop variables by constant bounds: lowering's plan.inbounds,
// ir/lower/ProveInBounds.cpp) are loaded without per-element bounds tests; a tile that can
// cross the tensor's edge keeps them.
// (Results at both kinds of shapes: double_buffer_test, vector_copies_test.)
#include "plugins/vulkan/tests/CodegenTestUtil.h"

#include <sstream>
#include <string>

#include "plugins/vulkan/spirv/Listing.h"

namespace proven_bounds_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

namespace {

std::string gemm(int m) {
  std::string M = std::to_string(m);
  return "kernel g(A: f16[" + M + ", 256], B: f16[256, 256], C: f32[" + M + ", 256]) grid(2, ceildiv(" + M +
         ", 128)) threads(256) {\n"
         "  alloc As: shared f16[128, 32]\n  alloc Bs: shared f16[32, 128]\n  alloc Acc: fragment f32[128, 128]\n"
         "  fill Acc, 0.0\n  pipelined k in 0 .. 8, stages=2 {\n"
         "    copy A[by * 128, k * 32], As\n    copy B[k * 32, bx * 128], Bs\n"
         "    gemm As, Bs, Acc, accumulate=true\n  }\n  copy Acc, C[by * 128, bx * 128]\n}\n";
}

/// Unsigned comparisons in the module: the bounds tests of global accesses.
int unsigned_compares(const std::vector<uint32_t>& words) {
  std::istringstream lines(spirv_text(words));
  int n = 0;
  for (std::string line; std::getline(lines, line);) n += line.find("OpULessThan") != std::string::npos;
  return n;
}

}  // namespace

TEST_CASE("tiles that cannot leave a static tensor are loaded without bounds tests") {
  for (const DeviceCaps& caps : {lavapipe_caps(), h200_caps()}) {
    CAPTURE(caps.name);
    auto inside = generate_for(gemm(256), describe(caps));   // 2 x 128 rows: every tile inside
    auto edge = generate_for(gemm(200), describe(caps));     // the second row of blocks crosses row 200
    REQUIRE_MESSAGE(inside.is_ok(), inside.status().str());
    REQUIRE_MESSAGE(edge.is_ok(), edge.status().str());
    // The A copies of the edge kernel test rows (and columns, in the same conjunction).
    CHECK(unsigned_compares(inside->words) < unsigned_compares(edge->words));
    std::string verdict = spirv_val(inside->words);
    if (verdict != "skip") CHECK_MESSAGE(verdict.empty(), verdict);
  }
}

TEST_CASE("a tile without offsets over a static tensor starts at its origin and is proven like one at [0, 0]") {
  auto kernel = [](const std::string& tile) {
    return "kernel g(X: f32[16, 64], Y: f32[16, 64]) grid(1) threads(64) {\n  alloc S: shared f32[16, 64]\n  copy " + tile +
           ", S\n  map S = S * 2.0\n  copy S, Y[0, 0]\n}\n";
  };
  auto bare = generate_for(kernel("X"), describe(lavapipe_caps()));
  auto zero = generate_for(kernel("X[0, 0]"), describe(lavapipe_caps()));
  REQUIRE_MESSAGE(bare.is_ok(), bare.status().str());
  REQUIRE_MESSAGE(zero.is_ok(), zero.status().str());
  CHECK(unsigned_compares(bare->words) == unsigned_compares(zero->words));
}

}  // namespace proven_bounds_test
