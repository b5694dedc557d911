// Fragment exchange: two gemms chained through registers (attention's S = Q K^T, P = exp(S -
// max), O = P V) and a copy between two gemm layouts lower on every built-in target, stopped
// after every pass, to exactly the bytes of the unlowered kernel at edge shapes; the lowering
// says which fragment it exchanged; shipped kernels, whose layouts already agree, get no
// exchange; and what no exchange fixes is still refused with both sides named.
#include "ir/lower/tests/LowerCases.h"

#include <string>
#include <vector>

namespace exchange_fragments_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

const char* kChained =
    "kernel chained(Q: f16[M, D], K: f16[D, N], V: f16[N, D], O: f32[M, D]) grid(ceildiv(M, 32)) threads(128) {\n"
    "  alloc Qs: shared f16[32, 64]\n"
    "  alloc Ks: shared f16[64, 32]\n"
    "  alloc Vs: shared f16[32, 64]\n"
    "  alloc S: fragment f32[32, 32]\n"
    "  alloc P: fragment f16[32, 32]\n"
    "  alloc Mx: fragment f32[32, 1]\n"
    "  alloc Acc: fragment f32[32, 64]\n"
    "  fill Acc, 0.0\n"
    "  for j in 0 .. ceildiv(N, 32) {\n"
    "    copy Q[bx * 32, 0], Qs\n"
    "    copy K[0, j * 32], Ks\n"
    "    copy V[j * 32, 0], Vs\n"
    "    fill S, 0.0\n"
    "    gemm Qs, Ks, S, accumulate=true\n"
    "    reduce S, Mx, op=max, axis=1\n"
    "    map P = exp(S - Mx)\n"
    "    gemm P, Vs, Acc, accumulate=true\n"
    "  }\n"
    "  copy Acc, O[bx * 32, 0]\n"
    "}\n";

const char* kCopyBetweenGemms =
    "kernel g(A: f16[64, 32], B: f16[32, 64], C: f32[64, 64]) grid(1) threads(128) {\n"
    "  alloc As: shared f16[64, 32]\n  alloc Bs: shared f16[32, 64]\n"
    "  alloc C1: fragment f32[64, 64]\n  alloc C2: fragment f32[64, 64]\n"
    "  copy A, As\n  copy B, Bs\n"
    "  gemm As, Bs, C1\n"
    "  gemm As, Bs, C2, inst=fma\n"
    "  copy C1, C2\n"
    "  copy C2, C\n}\n";

/// Lowered after every pass on every built-in target, the kernel computes the original's bytes.
/// Returns the targets it lowered for.
std::vector<std::string> check_preserved(const std::string& text, const std::vector<std::string>& shapes) {
  auto k = parse_and_verify(text, "case.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  std::vector<std::string> lowered_for;
  for (const std::string& tname : builtin_target_names()) {
    CAPTURE(tname);
    TargetDescription t = target(tname);
    bool refused = false;
    for (const std::string& pass : pass_names()) {
      CAPTURE(pass);
      LowerOptions o;
      o.stop_after = pass;
      auto lowered = lower(*k, t, o);
      if (!lowered.is_ok()) {
        // Refused only for what the target lacks (an instruction for f16, threads), with a reason.
        INFO(lowered.status().str());
        CHECK(lowered.status().code() == ErrorCode::Unsupported);
        CHECK(lowered.status().message().find("layout conflict") == std::string::npos);
        refused = true;
        break;
      }
      auto back = read_lowered(print_kernel(lowered->kernel), "lowered");
      REQUIRE_MESSAGE(back.is_ok(), back.status().str());
      for (const std::string& shape : shapes) {
        CAPTURE(shape);
        auto want = run_bytes(*k, shape, 3);
        REQUIRE_MESSAGE(want.is_ok(), want.status().str());
        auto got = run_bytes(*back, shape, 3);
        REQUIRE_MESSAGE(got.is_ok(), got.status().str());
        CHECK(*got == *want);
      }
    }
    if (!refused) lowered_for.push_back(tname);
  }
  return lowered_for;
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  for (const std::string& s : v)
    if (s == x) return true;
  return false;
}

}  // namespace

TEST_CASE("two gemms chained through registers lower and compute the original bytes") {
  std::vector<std::string> ok = check_preserved(kChained, {"M=1,N=1,D=64", "M=37,N=71,D=64", "M=64,N=32,D=64"});
  for (const char* t : {"sm_80", "sm_90a", "gfx942", "host_cpu"}) CHECK_MESSAGE(has(ok, t), t);
}

TEST_CASE("the exchange is in the lowered form and the explanation") {
  auto r = lower_text(kChained, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* s = alloc_of(r->kernel, "S_exchange");
  REQUIRE(s != nullptr);
  CHECK(s->type.scope == Scope::Shared);
  CHECK(s->type.dtype == DType::F32);
  CHECK(s->type.shape == std::vector<int64_t>{32, 32});
  CHECK(log_has(*r, "case.tile:17:5: map: fragment 'S' ("));
  CHECK(log_has(*r, "is not held where 'P' ("));
  CHECK(log_has(*r, "exchanged through shared 'S_exchange'"));
  // The map reads the copy; the copy sits right before it.
  std::string text = print_kernel(r->kernel);
  CHECK(text.find("copy S, S_exchange") < text.find("map P = exp(S_exchange"));
}

TEST_CASE("a copy between two gemm layouts goes through shared memory") {
  std::vector<std::string> ok = check_preserved(kCopyBetweenGemms, {""});
  CHECK(has(ok, "sm_80"));
  auto r = lower_text(kCopyBetweenGemms, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  std::string text = print_kernel(r->kernel);
  CHECK(text.find("copy C1, C1_exchange") != std::string::npos);
  CHECK(text.find("copy C1_exchange, C2") != std::string::npos);
  CHECK(log_has(*r, "copy: fragment 'C1' ("));
}

TEST_CASE("shipped kernels need no exchange") {
  for (const char* file : {"gemm/gemm_f16.tile", "gemm/gemm_bf16.tile", "softmax/softmax_rows.tile", "reduce/row_sum.tile",
                           "elementwise/silu_mul.tile", "elementwise/silu_mul_parallel.tile"})
    for (const std::string& tname : builtin_target_names()) {
      CAPTURE(file);
      CAPTURE(tname);
      auto r = lower_text(example_text(file), tname);
      if (!r.is_ok()) continue;
      CHECK(print_kernel(r->kernel).find("_exchange") == std::string::npos);
    }
}

TEST_CASE("a map into shared memory that reads a broadcast fragment reads its shared copy") {
  const char* text =
      "kernel mb(X: f32[M, N], Y: f32[M, N]) grid(ceildiv(M, 32)) threads(128) {\n"
      "  alloc T: shared f32[32, 32]\n  alloc F: fragment f32[32, 32]\n  alloc R: fragment f32[32, 1]\n"
      "  copy X[bx * 32, 0], F\n  copy X[bx * 32, 0], T\n"
      "  reduce F, R, op=max, axis=1\n"
      "  map T = T - R\n"
      "  copy T, Y[bx * 32, 0]\n}\n";
  std::vector<std::string> ok = check_preserved(text, {"M=1,N=1", "M=45,N=32", "M=64,N=17"});
  for (const char* t : {"sm_80", "sm_90a", "gfx942", "host_cpu"}) CHECK_MESSAGE(has(ok, t), t);
  auto r = lower_text(text, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(print_kernel(r->kernel).find("map T = T - R_exchange") != std::string::npos);
  CHECK(log_has(*r, "is not held where the free thread plan of a map into shared memory needs it"));
}

}  // namespace exchange_fragments_test
