// Global tiles that lowering proved inside their tensor (plan.inbounds, from the index ranges
// of a constant grid and serial loop bounds: ir/lower/ProveInBounds.cpp) are copied without
// a bounds test in the proven dimensions; an unproven dimension keeps its test. That holds for
// the copies a pipeline issues ahead through cp.async too (their zero fill past the edge is
// computed only where the tile may leave the tensor). Checked on the generated C++ and through
// NVRTC; gpu_tile_ops_test, gpu_pipelines_test and the conformance suite run copies.
#include "plugins/cuda/tests/CudaTest.h"

namespace proven_bounds_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

std::string tile_copy(const std::string& shape, const std::string& grid) {
  return "kernel g(X: f32" + shape + ", Y: f32" + shape + ") grid(" + grid + ") threads(128) {\n  alloc S: shared f32[16, 64]\n" +
         "  copy X[by * 16, bx * 64], S\n  copy S, Y[by * 16, bx * 64]\n}\n";
}

/// A pipelined gemm whose copies sm_80 issues through cp.async; `k` is the shared K of A and B
/// (the loop runs 8 steps of 32, past a K below 256).
std::string pipelined_gemm(const std::string& k) {
  return "kernel g(A: f16[256, " + k + "], B: f16[" + k +
         ", 256], C: f32[256, 256]) grid(2, 2) threads(128) {\n"
         "  alloc As: shared f16[128, 32]\n  alloc Bs: shared f16[32, 128]\n  alloc Acc: fragment f32[128, 128]\n"
         "  fill Acc, 0.0\n  pipelined kk in 0 .. 8, stages=3 {\n"
         "    copy A[by * 128, kk * 32], As\n    copy B[kk * 32, bx * 128], Bs\n"
         "    gemm As, Bs, Acc, accumulate=true\n  }\n  copy Acc, C[by * 128, bx * 128]\n}\n";
}

}  // namespace

TEST_CASE("a copy the grid keeps inside a static tensor has no bounds test") {
  TG_REQUIRE_NVRTC();
  auto g = generate_for(tile_copy("[64, 128]", "2, 4"), "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  // Block offsets are not constants, so the constant-offset rule CUDA had proved nothing here.
  CHECK_FALSE(contains(g->source, "(unsigned long long)gd_X_"));
  CHECK_FALSE(contains(g->source, "(unsigned long long)gd_Y_"));
  auto ptx = ptx_for(tile_copy("[64, 128]", "2, 4"), "sm_90a");
  CHECK_MESSAGE(ptx.is_ok(), ptx.status().str());
}

TEST_CASE("only the proven dimension loses its test") {
  TG_REQUIRE_NVRTC();
  // bx reaches 2, past the 128 columns; by stays inside the 64 rows.
  auto g = generate_for(tile_copy("[64, 128]", "3, 4"), "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  CHECK(contains(g->source, "(unsigned long long)gd_X_1"));
  CHECK(contains(g->source, "(unsigned long long)gd_Y_1"));
  CHECK_FALSE(contains(g->source, "(unsigned long long)gd_X_0"));
  CHECK_FALSE(contains(g->source, "(unsigned long long)gd_Y_0"));
}

TEST_CASE("symbolic sizes keep every test") {
  TG_REQUIRE_NVRTC();
  auto g = generate_for(tile_copy("[M, N]", "ceildiv(N, 64), ceildiv(M, 16)"), "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  for (const char* dim : {"gd_X_0", "gd_X_1", "gd_Y_0", "gd_Y_1"}) CHECK(contains(g->source, std::string("(unsigned long long)") + dim));
}

TEST_CASE("a pipelined copy proven inside its tensor is issued without a bounds test") {
  TG_REQUIRE_NVRTC();
  auto g = generate_for(pipelined_gemm("256"), "sm_80");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  REQUIRE(contains(g->source, "tg_cp_async((smem_u32"));
  // Neither the rows' tests nor the column's remaining bytes: every vector moves whole.
  CHECK_FALSE(contains(g->source, "const int src_bytes"));
  CHECK_FALSE(contains(g->source, "const long long left"));
  for (const char* dim : {"gd_A_0", "gd_A_1", "gd_B_0", "gd_B_1"})
    CHECK_FALSE(contains(g->source, std::string("(unsigned long long)") + dim));
}

TEST_CASE("a pipelined copy whose tail leaves the tensor keeps the test of that dimension only") {
  TG_REQUIRE_NVRTC();
  // K = 248: the last step's columns of A and rows of B run past the tensors; the rows of A
  // and the columns of B stay inside.
  auto g = generate_for(pipelined_gemm("248"), "sm_80");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  CHECK(contains(g->source, "gd_A_1 - cl"));                            // A's column: zero fill past K
  CHECK_FALSE(contains(g->source, "(unsigned long long)gd_A_0"));       // A's rows: no test
  CHECK(contains(g->source, "(unsigned long long)gd_B_0) ? 16 : 0;"));  // B's rows: whole vector or none
  CHECK_FALSE(contains(g->source, "gd_B_1 - cl"));                      // B's column: no test
  auto ptx = ptx_for(pipelined_gemm("248"), "sm_80");
  CHECK_MESSAGE(ptx.is_ok(), ptx.status().str());
}

TEST_CASE("a pipelined copy of symbolic sizes keeps every test") {
  TG_REQUIRE_NVRTC();
  std::string text = pipelined_gemm("K");
  const std::pair<std::string, std::string> symbolic[] = {{"f16[256, K]", "f16[M, K]"},
                                                         {"f16[K, 256]", "f16[K, N]"},
                                                         {"f32[256, 256]", "f32[M, N]"},
                                                         {"grid(2, 2)", "grid(ceildiv(N, 128), ceildiv(M, 128))"},
                                                         {"0 .. 8", "0 .. ceildiv(K, 32)"}};
  for (const auto& [from, to] : symbolic) text.replace(text.find(from), from.size(), to);
  // Rows of a whole number of vectors, as the runtime's specialisation guarantees, so that the
  // copies go through cp.async at all; the divisibility proves nothing about the edges.
  auto k = ir::parse_and_verify(text, "test.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  ir::LowerOptions o;
  o.divisibility = {{"M", 128}, {"N", 128}, {"K", 64}};
  TargetDescription t = target("sm_80");
  auto r = ir::lower(*k, t, o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto g = cuda::generate_cuda(r->kernel, t, *cuda::arch_for_target(t));
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  REQUIRE(contains(g->source, "tg_cp_async((smem_u32"));
  CHECK(contains(g->source, "(unsigned long long)gd_A_0"));
  CHECK(contains(g->source, "gd_A_1 - cl"));
  CHECK(contains(g->source, "(unsigned long long)gd_B_0"));
  CHECK(contains(g->source, "gd_B_1 - cl"));
}

}  // namespace proven_bounds_test
