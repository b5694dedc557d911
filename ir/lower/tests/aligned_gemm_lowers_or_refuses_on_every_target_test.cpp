// The variant the runtime compiles first (tensors on 16-byte boundaries, every shape symbol
// a multiple of 16: what the scheduler ranks with) of a plain pipelined bf16 gemm lowers on
// every built-in target description, or is refused with a reason; it never crashes. BM = 64
// is where sm_100a's tcgen05 entries stop fitting (no m64 readback), and is the tile the
// tuned gemm's scheduler reported a crash for; BM = 128 takes tcgen05. What lowers computes
// the original's results bit for bit on the interpreter.
#include <string>

#include "ir/lower/tests/LowerTestUtil.h"

using namespace tegula;
using namespace tegula::ir;

namespace {

std::string pipelined_gemm(int64_t bm) {
  std::string m = std::to_string(bm);
  return "kernel g(A: bf16[M, K], B: bf16[K, N], C: bf16[M, N]) grid(ceildiv(N, 64), ceildiv(M, " + m +
         ")) threads(128) {\n"
         "  alloc As: shared bf16[" + m + ", 32]\n"
         "  alloc Bs: shared bf16[32, 64]\n"
         "  alloc Acc: fragment f32[" + m + ", 64]\n"
         "  fill Acc, 0.0\n"
         "  pipelined k in 0 .. ceildiv(K, 32), stages=2 {\n"
         "    copy A[by * " + m + ", k * 32], As\n"
         "    copy B[k * 32, bx * 64], Bs\n"
         "    gemm As, Bs, Acc, accumulate=true\n"
         "  }\n"
         "  copy Acc, C[by * " + m + ", bx * 64]\n"
         "}\n";
}

LowerOptions aligned_divisible_by_16() {
  LowerOptions o;
  o.tensors_aligned = true;
  o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
  return o;
}

}  // namespace

TEST_CASE("an aligned, 16-divisible pipelined gemm lowers or is refused with a reason on every target") {
  const char* shape = "M=256,N=128,K=96";
  for (int64_t bm : {64, 128}) {
    CAPTURE(bm);
    auto k = parse_and_verify(pipelined_gemm(bm), "gemm.tile");
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    auto want = testing::run_bytes(*k, shape, 7);
    REQUIRE_MESSAGE(want.is_ok(), want.status().str());
    for (const std::string& name : builtin_target_names()) {
      CAPTURE(name);
      auto lowered = lower(*k, testing::target(name), aligned_divisible_by_16());
      if (!lowered.is_ok()) {
        CHECK_FALSE(lowered.status().message().empty());
        MESSAGE(name << " refuses BM=" << bm << ": " << lowered.status().str());
        continue;
      }
      std::string text = print_kernel(lowered->kernel);
      auto back = read_lowered(text, testing::target(name), "lowered");
      REQUIRE_MESSAGE(back.is_ok(), back.status().str());
      auto got = testing::run_bytes(*back, shape, 7);
      REQUIRE_MESSAGE(got.is_ok(), got.status().str());
      CHECK(*got == *want);
    }
  }
}
