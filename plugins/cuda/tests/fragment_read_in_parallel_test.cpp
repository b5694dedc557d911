// A parallel loop may read any element of a fragment (tegula.parallel.fragment_read.*):
// lowering stages the fragment through a row-major shared copy before the loop
// (ir/lower/StageFragmentReads.cpp; barriers from insert_barriers) and the loop reads the
// copy. Checked here on the generated C++ and through NVRTC for every dtype; gpu_tile_ops_test
// runs it against the interpreter.
#include "plugins/cuda/tests/CudaTest.h"

namespace fragment_read_in_parallel_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

/// conformance/cases/ParallelCases.cpp, fragment_read.
std::string fragment_read(DType d) {
  std::string t = dtype_name(d);
  std::string value = d == DType::Bool ? "!f[15 - i, j]" : "f[15 - i, j] * 3";
  return "kernel par_fragment(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n" +
         "  alloc f: fragment " + t + "[16, 64]\n  copy X[by * 16, bx * 64], f, pad=1\n  parallel (i, j) in (16, 64) {\n" +
         "    if by * 16 + i < M && bx * 64 + j < N {\n      store Y[by * 16 + i, bx * 64 + j] = " + value + "\n    }\n  }\n}\n";
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a fragment read by index in a parallel loop goes through a shared copy, for every dtype") {
  TG_REQUIRE_NVRTC();
  for (int i = 0; i < kNumDTypes; ++i) {
    DType d = DType(i);
    CAPTURE(dtype_name(d));
    std::string text = fragment_read(d);
    auto g = generate_for(text, "sm_90a");
    REQUIRE_MESSAGE(g.is_ok(), g.status().str());
    // The copy holds the whole 16 x 64 fragment in the dtype's storage.
    CHECK(g->info.shared_bytes == 16 * 64 * int64_t(dtype_size(d)));
    CHECK(contains(g->source, "so_f_staged("));
    // Nothing read the copy before, so one barrier: after its writes; the loop reads the copy.
    CHECK(count(g->source, "__syncthreads();") == 1);
    CHECK(contains(g->source, "so_f_staged((int)((((15LL) - v_i_"));
    auto ptx = ptx_for(text, "sm_90a");
    CHECK_MESSAGE(ptx.is_ok(), ptx.status().str());
    CHECK(contains(*ptx, "ld.shared"));
  }
}

TEST_CASE("a fragment rewritten between loops is staged again before each loop") {
  TG_REQUIRE_NVRTC();
  std::string text = "kernel again(X: f32[64], Y: f32[4, 64]) grid(1) threads(64) {\n  alloc f: fragment f32[64]\n"
                     "  copy X[0], f\n  for k in 0 .. 4 {\n    parallel i in 64 {\n      store Y[k, i] = f[63 - i]\n    }\n"
                     "    map f = f * 2.0\n  }\n}\n";
  auto g = generate_for(text, "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  CHECK(g->info.shared_bytes == 64 * 4);
  // The staging (its writes between two barriers: the previous trip read the copy) sits
  // inside the serial loop, so it runs on every trip.
  size_t loop = g->source.find("for (long long v_k_");
  size_t write = g->source.find("so_f_staged((int)(0), (int)(tp");
  REQUIRE(loop != std::string::npos);
  REQUIRE(write != std::string::npos);
  CHECK(loop < write);
  size_t before = g->source.rfind("__syncthreads();", write), after = g->source.find("__syncthreads();", write);
  REQUIRE(before != std::string::npos);
  REQUIRE(after != std::string::npos);
  CHECK(loop < before);
  CHECK(count(g->source, "__syncthreads();") == 2);
  auto ptx = ptx_for(text, "sm_90a");
  CHECK_MESSAGE(ptx.is_ok(), ptx.status().str());
}

TEST_CASE("a staged copy counts against the shared-memory budget") {
  TG_REQUIRE_NVRTC();
  // 240 KiB of f64 staged: more than sm_90a's 227 KiB per block.
  std::string text = "kernel big(Y: f64[120, 256]) grid(1) threads(1024) {\n  alloc f: fragment f64[120, 256]\n  fill f, 1.0\n"
                     "  parallel (i, j) in (120, 256) {\n    store Y[i, j] = f[119 - i, j]\n  }\n}\n";
  auto g = generate_for(text, "sm_90a");
  REQUIRE(!g.is_ok());
  CHECK(contains(g.status().message(), "shared memory"));
}

}  // namespace fragment_read_in_parallel_test
