// The tile ops a kernel needs most compile for gfx942 (offline, no GPU) into code that does
// what lowering planned: global loads and stores, LDS accesses (ds_*), s_barrier, loops and
// conditionals, the FMA gemm, bitcasts, with no scratch (private memory) for fragments.
#include "plugins/hip/tests/HipTest.h"

namespace tile_ops_compile_test {

using namespace tegula;
using namespace tegula::hip::testing;

namespace {

struct Case {
  const char* name;
  const char* kernel;
  std::vector<std::string> needles;
};

const Case kCases[] = {
    {"copy through a fragment, masked",
     "kernel k(X: f32[N], Y: f32[N]) grid(ceildiv(N, 256)) threads(128) {\n"
     "  alloc t: fragment f32[256]\n  copy X[bx * 256], t\n  copy t, Y[bx * 256]\n}\n",
     {"global_load_dword", "global_store_dword", "v_cmp"}},
    {"copy through shared memory, f16 to f32",
     "kernel k(X: f16[M, N], Y: f32[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n"
     "  alloc s: shared f16[16, 64]\n  alloc f: fragment f32[16, 64]\n"
     "  copy X[by * 16, bx * 64], s\n  copy s, f\n  copy f, Y[by * 16, bx * 64]\n}\n",
     {"ds_write", "ds_read", "s_barrier", "v_cvt_f32_f16"}},
    {"fill and map with a scalar, bf16 out",
     "kernel k(X: f32[N], Y: bf16[N], a: f32) grid(ceildiv(N, 512)) threads(256) {\n"
     "  alloc x: fragment f32[512]\n  alloc y: fragment f32[512]\n  fill y, 1.5\n"
     "  copy X[bx * 512], x\n  map y = max(a * x + y, 0.0) + exp(x)\n  copy y, Y[bx * 512]\n}\n",
     {"global_store_short", "v_exp_f32"}},
    {"parallel loop with store, if and for",
     "kernel k(X: f32[N], Y: f32[N]) grid(ceildiv(N, 256)) threads(256) {\n"
     "  parallel i in 256 {\n    if bx * 256 + i < N {\n      store Y[bx * 256 + i] = X[bx * 256 + i] * 2.0\n    }\n  "
     "}\n"
     "  for j in 0 .. 3 {\n    barrier\n  }\n}\n",
     {"global_load_dword", "global_store_dword", "s_barrier"}},
    {"gemm on the FMA fallback (f32)",
     "kernel k(A: f32[M, K], B: f32[K, N], C: f32[M, N]) grid(ceildiv(N, 32), ceildiv(M, 32)) threads(128) {\n"
     "  alloc As: shared f32[32, 16]\n  alloc Bs: shared f32[16, 32]\n  alloc acc: fragment f32[32, 32]\n  fill acc, "
     "0.0\n"
     "  for k in 0 .. ceildiv(K, 16) {\n    copy A[by * 32, k * 16], As\n    copy B[k * 16, bx * 32], Bs\n"
     "    gemm As, Bs, acc, accumulate=true\n  }\n  copy acc, C[by * 32, bx * 32]\n}\n",
     {"v_fma", "ds_read", "s_barrier"}},
    {"bitcast both ways: an f32's bits as i32 and back, u8 as e4m3",
     "kernel k(X: f32[N], B: u8[N], Y: i32[N], Z: f32[N]) grid(ceildiv(N, 256)) threads(256) {\n"
     "  alloc x: fragment f32[256]\n  alloc b: fragment u8[256]\n  alloc y: fragment i32[256]\n"
     "  alloc z: fragment f32[256]\n  copy X[bx * 256], x\n  copy B[bx * 256], b\n"
     "  map y = bitcast<i32>(x) ^ 1\n  map z = bitcast<f32>(y) + bitcast<e4m3>(b)\n"
     "  copy y, Y[bx * 256]\n  copy z, Z[bx * 256]\n}\n",
     {"global_load_ubyte", "v_xor_b32", "global_store_dword"}},
    {"row sum across waves (shuffles, then the LDS scratch)",
     "kernel k(X: f32[M, 1024], Y: f32[M, 1]) grid(M) threads(256) {\n"
     "  alloc x: fragment f32[1, 1024]\n  alloc s: fragment f32[1, 1]\n  copy X[bx, 0], x\n"
     "  reduce x, s, op=sum, axis=1\n  copy s, Y[bx, 0]\n}\n",
     {"ds_bpermute_b32", "s_barrier", "ds_write", "ds_read"}},
};

}  // namespace

TEST_CASE("basic tile ops compile for gfx942 with the instructions they need and no scratch") {
  for (const Case& c : kCases) {
    std::string name = c.name;
    CAPTURE(name);
    auto text = assembly_for(c.kernel);
    REQUIRE_MESSAGE(text.is_ok(), text.status().str());
    CHECK(contains(*text, ".amdhsa_kernel k"));
    CHECK(contains(*text, ".amdgcn_target \"amdgcn-amd-amdhsa--gfx942\""));
    for (const std::string& n : c.needles) {
      CAPTURE(n);
      CHECK(contains(*text, n));
    }
    // No private (scratch) memory and no spills: fragments live in VGPRs. (A one-wave
    // workgroup needs no s_barrier: LLVM drops it, so the barrier cases use two waves.)
    CHECK(asm_number(*text, ".amdhsa_private_segment_fixed_size ") == 0);
    CHECK(asm_number(*text, ".vgpr_spill_count:") == 0);
    CHECK(asm_number(*text, ".vgpr_count:") <= 512);
  }
}

TEST_CASE("every example without an MFMA gemm or an fp8 dtype compiles for gfx942 without scratch") {
  const char* examples[] = {"elementwise/silu_mul.tile", "elementwise/silu_mul_parallel.tile",
                            "reduce/row_sum.tile",       "softmax/softmax_rows.tile",
                            "norm/rmsnorm.tile",         "norm/layernorm.tile",
                            "norm/rmsnorm_residual.tile", "norm/layernorm_residual.tile"};
  for (const char* ex : examples) {
    std::string name = ex;
    CAPTURE(name);
    auto src = read_file(std::string(TEGULA_SOURCE_DIR) + "/examples/" + ex);
    REQUIRE_MESSAGE(src.is_ok(), src.status().str());
    auto text = assembly_for(*src);
    REQUIRE_MESSAGE(text.is_ok(), text.status().str());
    CHECK(asm_number(*text, ".amdhsa_private_segment_fixed_size ") == 0);
    CHECK(asm_number(*text, ".group_segment_fixed_size:") <= 65536);
  }
}

}  // namespace tile_ops_compile_test
