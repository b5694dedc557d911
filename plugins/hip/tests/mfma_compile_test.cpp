// gemms that lowering gives an MFMA instruction compile to that instruction: the catalogue's
// intrinsic in the LLVM IR, the v_mfma_* mnemonic in the assembly, accumulators in AGPRs, no
// spills and no scratch, the description's LDS budget kept.
#include "plugins/hip/tests/HipTest.h"

namespace mfma_compile_test {

using namespace tegula;
using namespace tegula::hip::testing;

namespace {

std::string gemm(const char* in, int tile, const char* in_b = nullptr) {
  std::string t = std::to_string(tile);
  const char* bin = in_b ? in_b : in;
  return std::string("kernel k(A: ") + in + "[M, K], B: " + bin + "[K, N], C: f32[M, N]) grid(ceildiv(N, " + t +
         "), ceildiv(M, " + t + ")) threads(256) {\n  alloc As: shared " + in + "[" + t + ", 32]\n  alloc Bs: shared " +
         bin + "[32, " + t + "]\n  alloc acc: fragment f32[" + t + ", " + t +
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

TEST_CASE("FNUZ fp8 gemms run on CDNA3's fp8 and bf8 MFMA") {
  const struct {
    const char* a;
    const char* b;
    const char* intrinsic;
    const char* mnemonic;
  } cases[] = {
      {"e4m3fnuz", "e4m3fnuz", "llvm.amdgcn.mfma.f32.32x32x16.fp8.fp8", "v_mfma_f32_32x32x16_fp8_fp8"},
      {"e5m2fnuz", "e5m2fnuz", "llvm.amdgcn.mfma.f32.32x32x16.bf8.bf8", "v_mfma_f32_32x32x16_bf8_bf8"},
      {"e4m3fnuz", "e5m2fnuz", "llvm.amdgcn.mfma.f32.32x32x16.fp8.bf8", "v_mfma_f32_32x32x16_fp8_bf8"},
  };
  for (const auto& c : cases) {
    std::string pair = std::string(c.a) + " x " + c.b;
    CAPTURE(pair);
    auto text = assembly_for(gemm(c.a, 128, c.b));
    REQUIRE_MESSAGE(text.is_ok(), text.status().str());
    CHECK(contains(*text, c.intrinsic));
    CHECK(contains(*text, c.mnemonic));
    CHECK(asm_number(*text, ".vgpr_spill_count:") == 0);
    CHECK(asm_number(*text, ".amdhsa_private_segment_fixed_size ") == 0);
  }
  // The OCP formats are not what CDNA3's fp8 MFMA computes: they take the fma fallback.
  auto ocp = assembly_for(gemm("e4m3", 64));
  REQUIRE_MESSAGE(ocp.is_ok(), ocp.status().str());
  CHECK_FALSE(contains(*ocp, "v_mfma"));
}

}  // namespace mfma_compile_test
