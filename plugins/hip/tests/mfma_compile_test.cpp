// gemms that lowering gives an MFMA instruction compile to that instruction: the catalogue's
// intrinsic in the LLVM IR, the v_mfma_* mnemonic in the assembly, accumulators in AGPRs, no
// spills and no scratch, the description's LDS budget kept.
#include "plugins/hip/tests/HipTest.h"

namespace mfma_compile_test {

using namespace tegula;
using namespace tegula::hip::testing;

namespace {

std::string gemm(const char* in, int tile) {
  std::string t = std::to_string(tile);
  return std::string("kernel k(A: ") + in + "[M, K], B: " + in + "[K, N], C: f32[M, N]) grid(ceildiv(N, " + t +
         "), ceildiv(M, " + t + ")) threads(256) {\n  alloc As: shared " + in + "[" + t + ", 32]\n  alloc Bs: shared " +
         in + "[32, " + t + "]\n  alloc acc: fragment f32[" + t + ", " + t +
         "]\n  fill acc, 0.0\n  for k in 0 .. ceildiv(K, 32) {\n    copy A[by * " + t +
         ", k * 32], As\n    copy B[k * 32, bx * " + t +
         "], Bs\n    gemm As, Bs, acc, accumulate=true\n  }\n  copy acc, C[by * " + t + ", bx * " + t + "]\n}\n";
}

}  // namespace

TEST_CASE("f16 and bf16 gemms run on the MFMA instruction lowering chose") {
  const struct {
    const char* dtype;
    int tile;
    const char* intrinsic;
    const char* mnemonic;
  } cases[] = {
      {"f16", 128, "llvm.amdgcn.mfma.f32.32x32x8f16", "v_mfma_f32_32x32x8_f16"},
      {"bf16", 128, "llvm.amdgcn.mfma.f32.32x32x8bf16.1k", "v_mfma_f32_32x32x8_bf16"},
  };
  for (const auto& c : cases) {
    std::string dtype = c.dtype;
    CAPTURE(dtype);
    auto text = assembly_for(gemm(c.dtype, c.tile));
    REQUIRE_MESSAGE(text.is_ok(), text.status().str());
    CHECK(contains(*text, c.intrinsic));
    CHECK(contains(*text, c.mnemonic));
    CHECK(asm_number(*text, ".agpr_count:") > 0);
    CHECK(asm_number(*text, ".vgpr_spill_count:") == 0);
    CHECK(asm_number(*text, ".amdhsa_private_segment_fixed_size ") == 0);
    CHECK(asm_number(*text, ".group_segment_fixed_size:") <= 65536);
  }
}

}  // namespace mfma_compile_test
