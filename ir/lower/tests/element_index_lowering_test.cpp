// Maps with element indices (idx) lower on every built-in target and compute what the
// original computes: over gemm accumulators (mma.sync, wgmma, tcgen05, MFMA, fma; a causal
// mask, the motivating case), over fragments and shared tiles, at edge shapes (one element,
// primes, tails off the instruction shape). The indices come from the layout the map runs
// over, and --explain says which.
#include "ir/lower/tests/LowerCases.h"

namespace element_index_lowering_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// gemm_text with a causal mask over the accumulator before it is stored.
std::string causal_gemm(const std::string& dt, int64_t m, int64_t n, int64_t k, int64_t threads,
                        const std::string& extra = "") {
  std::string text = gemm_text(dt, m, n, k, threads, extra);
  std::string mask = "  map Acc = select(bx * " + std::to_string(n) + " + idx(1) > by * " + std::to_string(m) +
                     " + idx(0), -inf, Acc)\n";
  auto pos = text.find("  copy Acc, C[");
  REQUIRE(pos != std::string::npos);
  return text.insert(pos, mask);
}

const std::vector<std::string> kGemmShapes = {"M=70,N=33,K=45", "M=1,N=1,K=1", "M=131,N=67,K=19"};

void check_same_results(const Kernel& original, const LowerResult& r,
                        const std::vector<std::string>& shapes = kGemmShapes) {
  std::string text = print_kernel(r.kernel);
  auto back = read_lowered(text, "lowered");
  REQUIRE_MESSAGE(back.is_ok(), back.status().str());
  for (const std::string& shape : shapes) {
    CAPTURE(shape);
    auto want = run_bytes(original, shape, 11);
    auto got = run_bytes(*back, shape, 11);
    REQUIRE_MESSAGE(want.is_ok(), want.status().str());
    REQUIRE_MESSAGE(got.is_ok(), got.status().str());
    CHECK(*got == *want);
  }
}

}  // namespace

TEST_CASE("a causal mask over a gemm accumulator lowers on every target and computes the original") {
  for (const std::string& tname : builtin_target_names()) {
    CAPTURE(tname);
    auto k = parse_and_verify(causal_gemm("f16", 64, 64, 32, 128), "causal");
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    auto r = lower(*k, target(tname));
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK(log_has(*r, "map into 'Acc': element indices from the layout of fragment 'Acc'"));
    check_same_results(*k, *r);
  }
}

TEST_CASE("a causal mask over mma.sync and wgmma accumulators, each forced") {
  struct Forced {
    const char* target;
    const char* inst;
    int64_t m, n, threads;
  };
  const Forced cases[] = {{"sm_80", "mma_sync.m16n8k16.f16_f32", 64, 64, 128},
                          {"sm_89", "mma_sync.m16n8k16.f16_f32", 32, 64, 64},
                          {"sm_90a", "wgmma.m64nNk16.f16_f32", 64, 128, 128},
                          {"sm_90a", "wgmma.m64nNk16.f16_f32", 128, 64, 256}};
  for (const Forced& f : cases) {
    CAPTURE(f.target);
    CAPTURE(f.inst);
    auto k = parse_and_verify(causal_gemm("f16", f.m, f.n, 32, f.threads, std::string(", inst=\"") + f.inst + "\""),
                              "causal");
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    auto r = lower(*k, target(f.target));
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.inst") == std::string("\"") + f.inst + "\"");
    check_same_results(*k, *r);
  }
}

TEST_CASE("maps with idx over fragments and shared tiles lower and compute the original") {
  const char* scopes[][2] = {
      {"fragment", "fragment"}, {"fragment", "shared"}, {"shared", "shared"}, {"shared", "fragment"}};
  for (const std::string& tname : builtin_target_names()) {
    for (const auto& sc : scopes) {
      CAPTURE(tname);
      CAPTURE(sc[0]);
      CAPTURE(sc[1]);
      std::string text =
          std::string("kernel m(A: f32[M, N], C: f32[M, N]) grid(ceildiv(N, 13), ceildiv(M, 7)) threads(64) {\n") +
          "  alloc x: " + sc[0] + " f32[7, 13]\n  alloc z: " + sc[1] + " f32[7, 13]\n  copy A[by * 7, bx * 13], x\n" +
          "  map z = select(bx * 13 + idx(1) >= M - 2, x * 2.0, x + cast<f32>(idx(0) * 13 + idx(1)))\n" +
          "  copy z, C[by * 7, bx * 13]\n}\n";
      auto k = parse_and_verify(text, "m");
      REQUIRE_MESSAGE(k.is_ok(), k.status().str());
      auto r = lower(*k, target(tname));
      REQUIRE_MESSAGE(r.is_ok(), r.status().str());
      CHECK(log_has(*r, "map into 'z': element indices from"));
      check_same_results(*k, *r, {"M=1,N=1", "M=29,N=31", "M=7,N=130"});
    }
  }
}

}  // namespace element_index_lowering_test
