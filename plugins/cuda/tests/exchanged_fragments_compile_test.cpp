// Kernels the CUDA backend used to refuse although lowering accepted them, now rewritten by
// the lowering so that no thread touches another thread's registers: a parallel loop that
// stores into a fragment (stage_fragment_reads stores into a shared copy and copies it back),
// a map into shared memory that reads a broadcast fragment, and two gemms chained through
// registers in different layouts (exchange_fragments routes the operand through shared).
// Each compiles through NVRTC for every CUDA target; conformance runs them on a device
// (tegula.parallel.fragment_store.*, tegula.exchange.*).
#include "plugins/cuda/tests/CudaTest.h"

namespace exchanged_fragments_compile_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

const char* kFragmentStore =
    "kernel pstore(X: f32[M, N], Y: f32[M, N]) grid(ceildiv(M, 32)) threads(128) {\n"
    "  alloc F: fragment f32[32, 32]\n"
    "  parallel (i, j) in (32, 32) {\n    if bx * 32 + i < M && j < N {\n      store F[i, j] = X[bx * 32 + i, j] * 2.0\n    }\n  }\n"
    "  copy F, Y[bx * 32, 0]\n}\n";

const char* kBroadcastIntoShared =
    "kernel mapbc(X: f32[M, N], Y: f32[M, N]) grid(ceildiv(M, 32)) threads(128) {\n"
    "  alloc T: shared f32[32, 32]\n  alloc F: fragment f32[32, 32]\n  alloc R: fragment f32[32, 1]\n"
    "  copy X[bx * 32, 0], F\n  copy X[bx * 32, 0], T\n  reduce F, R, op=max, axis=1\n  map T = T - R\n"
    "  copy T, Y[bx * 32, 0]\n}\n";

const char* kChained =
    "kernel chained(Q: f16[M, D], K: f16[D, N], V: f16[N, D], O: f32[M, D]) grid(ceildiv(M, 32)) threads(128) {\n"
    "  alloc Qs: shared f16[32, 64]\n  alloc Ks: shared f16[64, 32]\n  alloc Vs: shared f16[32, 64]\n"
    "  alloc S: fragment f32[32, 32]\n  alloc P: fragment f16[32, 32]\n  alloc Mx: fragment f32[32, 1]\n"
    "  alloc Acc: fragment f32[32, 64]\n  fill Acc, 0.0\n"
    "  for j in 0 .. ceildiv(N, 32) {\n    copy Q[bx * 32, 0], Qs\n    copy K[0, j * 32], Ks\n    copy V[j * 32, 0], Vs\n"
    "    fill S, 0.0\n    gemm Qs, Ks, S, accumulate=true\n    reduce S, Mx, op=max, axis=1\n    map P = exp(S - Mx)\n"
    "    gemm P, Vs, Acc, accumulate=true\n  }\n  copy Acc, O[bx * 32, 0]\n}\n";

}  // namespace

TEST_CASE("kernels that move fragment data between threads compile for every CUDA target") {
  TG_REQUIRE_NVRTC();
  for (const char* text : {kFragmentStore, kBroadcastIntoShared, kChained})
    for (const char* t : {"sm_80", "sm_89", "sm_90a", "sm_100a"}) {
      CAPTURE(t);
      CAPTURE(text);
      auto ptx = ptx_for(text, t);
      REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
      // The moved data goes through shared memory.
      CHECK(contains(*ptx, "st.shared"));
      CHECK(contains(*ptx, "ld.shared"));
    }
}

TEST_CASE("the store's fragment is copied back from shared memory after the loop") {
  auto g = generate_for(kFragmentStore, "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  CHECK(g->info.shared_bytes >= 32 * 32 * 4);
  CHECK(contains(g->source, "so_F_staged("));
}

}  // namespace exchanged_fragments_compile_test
