// Maps with element indices (idx): the generated code compiles offline (NVRTC, no device)
// for sm_80, sm_89, sm_90a and sm_100a over gemm accumulators (mma.sync and wgmma forced,
// tcgen05 and the lowering's choice), fragments and shared tiles; the indices add no
// division or modulo to the code (they come from the layout: a per-thread base once, a
// constant per register); and on a CUDA device the results match the interpreter.
#include "plugins/cuda/tests/CudaTest.h"

#include <cstdint>
#include <string>
#include <tuple>

namespace element_index_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

const char* kTargets[] = {"sm_80", "sm_89", "sm_90a", "sm_100a"};

std::string causal_gemm(int64_t m, int64_t n, int64_t threads, const std::string& inst, const std::string& mask) {
  auto s = [](int64_t v) { return std::to_string(v); };
  return "kernel causal(A: f16[M, K], B: f16[K, N], C: f32[M, N]) grid(ceildiv(N, " + s(n) + "), ceildiv(M, " + s(m) +
         ")) threads(" + s(threads) + ") {\n  alloc As: shared f16[" + s(m) + ", 32]\n  alloc Bs: shared f16[32, " +
         s(n) + "]\n  alloc Acc: fragment f32[" + s(m) + ", " + s(n) +
         "]\n  fill Acc, 0.0\n  for k in 0 .. ceildiv(K, 32) {\n    copy A[by * " + s(m) + ", k * 32], As\n" +
         "    copy B[k * 32, bx * " + s(n) + "], Bs\n    gemm As, Bs, Acc, accumulate=true" +
         (inst.empty() ? "" : ", inst=\"" + inst + "\"") + "\n  }\n  map Acc = " + mask + "\n  copy Acc, C[by * " +
         s(m) + ", bx * " + s(n) + "]\n}\n";
}

std::string causal_mask(int64_t m, int64_t n) {
  return "select(bx * " + std::to_string(n) + " + idx(1) > by * " + std::to_string(m) + " + idx(0), -inf, Acc)";
}

int64_t count_div_mod(const std::string& src) {
  int64_t c = 0;
  for (size_t i = 0; i + 1 < src.size(); ++i) {
    // '/' or '%' as an operator (not the '//' of a comment, not inside "%d" formats).
    if (src[i] == '/' && src[i + 1] != '/' && (i == 0 || src[i - 1] != '/') && src[i + 1] != '*' &&
        (i == 0 || src[i - 1] != '*'))
      ++c;
    if (src[i] == '%' && src[i + 1] == ' ') ++c;
  }
  return c;
}

struct Forced {
  const char* target;
  const char* inst;
  int64_t m, n, threads;
};

const Forced kForced[] = {{"sm_80", "mma_sync.m16n8k16.f16_f32", 64, 64, 128},
                          {"sm_89", "mma_sync.m16n8k16.f16_f32", 32, 64, 64},
                          {"sm_90a", "wgmma.m64nNk16.f16_f32", 64, 128, 128},
                          {"sm_90a", "wgmma.m64nNk16.f16_f32", 128, 64, 256},
                          {"sm_100a", "", 128, 128, 128}};

}  // namespace

TEST_CASE("a causal mask over gemm accumulators compiles offline for every CUDA target") {
  TG_REQUIRE_NVRTC();
  for (const char* t : kTargets) {
    CAPTURE(t);
    auto ptx = ptx_for(causal_gemm(64, 64, 128, "", causal_mask(64, 64)), t);
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    CHECK(contains(*ptx, std::string(".target ") + t));
  }
  for (const Forced& f : kForced) {
    CAPTURE(f.target);
    CAPTURE(f.inst);
    auto ptx = ptx_for(causal_gemm(f.m, f.n, f.threads, f.inst, causal_mask(f.m, f.n)), f.target);
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    std::string family = std::string(f.inst).substr(0, 5);
    if (family == "mma_s") CHECK(contains(*ptx, "mma.sync.aligned.m16n8k16"));
    if (family == "wgmma") CHECK(contains(*ptx, "wgmma.mma_async.sync.aligned"));
    if (std::string(f.target) == "sm_100a") CHECK(contains(*ptx, "tcgen05.mma"));
  }
}

TEST_CASE("element indices add no division or modulo: positions come from the layout") {
  // The same kernel with a mask that reads no index: whatever division the two contain
  // (thread coordinates, loop bounds) is the same, so idx added none per element.
  for (const Forced& f : kForced) {
    CAPTURE(f.target);
    CAPTURE(f.inst);
    auto with = generate_for(causal_gemm(f.m, f.n, f.threads, f.inst, causal_mask(f.m, f.n)), f.target);
    auto without = generate_for(causal_gemm(f.m, f.n, f.threads, f.inst, "select(Acc > 1.0, -inf, Acc)"), f.target);
    REQUIRE_MESSAGE(with.is_ok(), with.status().str());
    REQUIRE_MESSAGE(without.is_ok(), without.status().str());
    CHECK(count_div_mod(with->source) == count_div_mod(without->source));
  }
}

TEST_CASE("maps with idx over fragments and shared tiles compile offline for every CUDA target") {
  TG_REQUIRE_NVRTC();
  const char* scopes[][2] = {{"fragment", "fragment"}, {"fragment", "shared"}, {"shared", "shared"}};
  for (const char* t : kTargets) {
    for (const auto& sc : scopes) {
      CAPTURE(t);
      CAPTURE(sc[0]);
      CAPTURE(sc[1]);
      std::string text =
          std::string("kernel m(X: i32[M, N], Z: i32[M, N]) grid(ceildiv(N, 13), ceildiv(M, 7)) threads(32) {\n") +
          "  alloc x: " + sc[0] + " i32[7, 13]\n  alloc z: " + sc[1] + " i32[7, 13]\n  copy X[by * 7, bx * 13], x\n" +
          "  map z = select(bx * 13 + idx(1) > by * 7 + idx(0), idx(0) * 3 - idx(1), x)\n  copy z, Z[by * 7, bx * "
          "13]\n}\n";
      auto ptx = ptx_for(text, t);
      REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    }
  }
}

TEST_CASE("on a CUDA device: causal masks and idx maps match the interpreter") {
  TG_REQUIRE_GPU(gpu);
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {67, 41, 19}, {131, 197, 70}}) {
    RunOptions o;
    o.bindings = {{"M", m}, {"N", n}, {"K", k}};
    Status st = run_and_compare(*gpu, causal_gemm(64, 64, 128, "", causal_mask(64, 64)), o);
    CHECK_MESSAGE(st.is_ok(), st.str());
  }
  RunOptions o;
  o.bindings = {{"M", 29}, {"N", 31}};
  Status st = run_and_compare(
      *gpu,
      "kernel m(X: f32[M, N], Z: f32[M, N]) grid(ceildiv(N, 13), ceildiv(M, 7)) threads(32) {\n"
      "  alloc x: fragment f32[7, 13]\n  alloc z: shared f32[7, 13]\n  copy X[by * 7, bx * 13], x\n"
      "  map z = select(bx * 13 + idx(1) > by * 7 + idx(0), -inf, x)\n  copy z, Z[by * 7, bx * 13]\n}\n",
      o);
  CHECK_MESSAGE(st.is_ok(), st.str());
}

}  // namespace element_index_test
