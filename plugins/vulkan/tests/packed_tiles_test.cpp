// Gemm operand tiles that only 16-byte copies write and only cooperative-matrix loads read
// are declared as arrays of 16-byte words (Packed.cpp); a tile anything else touches, and
// every tile on a device without cooperative matrices, keeps its element array.
#include "plugins/vulkan/tests/CodegenTestUtil.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

namespace {

/// How many Workgroup variables of the module are arrays of 4 x u32 (packed tiles).
int packed_workgroup_arrays(const std::vector<uint32_t>& words) {
  std::map<uint32_t, bool> u32, uvec4, array_of_uvec4, ptr_to_packed;
  int count = 0;
  for (size_t i = 5; i < words.size();) {
    uint32_t op = words[i] & 0xffff, len = words[i] >> 16;
    if (len == 0 || i + len > words.size()) break;
    const uint32_t* w = &words[i];
    if (op == 21 && len >= 4 && w[2] == 32 && w[3] == 0) u32[w[1]] = true;             // OpTypeInt 32 unsigned
    if (op == 23 && len >= 4 && u32.count(w[2]) && w[3] == 4) uvec4[w[1]] = true;      // OpTypeVector u32 4
    if (op == 28 && len >= 4 && uvec4.count(w[2])) array_of_uvec4[w[1]] = true;        // OpTypeArray
    if (op == 32 && len >= 4 && w[2] == 4 && array_of_uvec4.count(w[3])) ptr_to_packed[w[1]] = true;  // Workgroup pointer
    if (op == 59 && len >= 4 && ptr_to_packed.count(w[1]) && w[3] == 4) ++count;        // OpVariable Workgroup
    i += len;
  }
  return count;
}

std::string gemm(const std::string& extra) {
  return "kernel g(A: f16[256, 256], B: f16[256, 256], C: f16[256, 256]) grid(2, 2) threads(256) {\n"
         "  alloc As: shared f16[128, 32]\n  alloc Bs: shared f16[32, 128]\n  alloc Acc: fragment f32[128, 128]\n"
         "  fill Acc, 0.0\n"
         "  pipelined k in 0 .. 8, stages=2 {\n"
         "    copy A[by * 128, k * 32], As\n    copy B[k * 32, bx * 128], Bs\n" +
         extra +
         "    gemm As, Bs, Acc, accumulate=true\n  }\n"
         "  copy Acc, C[by * 128, bx * 128]\n}\n";
}

}  // namespace

TEST_CASE("cooperative-matrix operand tiles are packed") {
  auto shader = generate_for(gemm(""), describe(h200_caps()));
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  CHECK(packed_workgroup_arrays(shader->words) == 2);
}

TEST_CASE("a tile an elementwise op also touches keeps its elements") {
  auto shader = generate_for(gemm("    map As = As * 2.0\n"), describe(h200_caps()));
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  CHECK(packed_workgroup_arrays(shader->words) == 1);  // Bs only
}

TEST_CASE("without cooperative matrices no tile is packed") {
  auto shader = generate_for(gemm(""), describe(lavapipe_caps()));
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  CHECK(packed_workgroup_arrays(shader->words) == 0);
}
