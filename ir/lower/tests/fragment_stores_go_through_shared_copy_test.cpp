// stage_fragment_reads, for stores: a parallel loop that stores into a fragment by index
// stores into its shared copy, which is copied in before the loop (elements the loop does
// not store keep their values) and back after it; the lowered kernel, run by the
// interpreter's lowered model (fragments per thread and register), gives the original's
// bytes on every target, also for a fragment in a matrix instruction's layout that a gemm
// then accumulates into; and read_lowered refuses a lowered form that stores into a fragment
// by index.
#include "ir/lower/tests/LowerCases.h"

#include <string>

namespace fragment_stores_go_through_shared_copy_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// Stores a triangle of f (a partial write: the rest keeps the copied-in values), then copies f out.
const char* kTriangle =
    "kernel tri(X: f32[M, N], Y: f32[M, N]) grid(ceildiv(N, 32), ceildiv(M, 16)) threads(128) {\n"
    "  alloc f: fragment f32[16, 32]\n"
    "  copy X[by * 16, bx * 32], f\n"
    "  parallel (i, j) in (16, 32) {\n"
    "    if j <= i {\n"
    "      store f[i, j] = X[min(by * 16 + i, M - 1), min(bx * 32 + j, N - 1)] * 2.0 + 1.0\n"
    "    }\n"
    "  }\n"
    "  copy f, Y[by * 16, bx * 32]\n"
    "}\n";

/// The fragment stored by index is then a gemm's accumulator (an instruction's register layout).
const char* kIntoAccumulator =
    "kernel g(A: f16[64, 32], B: f16[32, 64], C: f32[64, 64]) grid(1) threads(128) {\n"
    "  alloc As: shared f16[64, 32]\n  alloc Bs: shared f16[32, 64]\n  alloc Acc: fragment f32[64, 64]\n"
    "  copy A, As\n  copy B, Bs\n"
    "  parallel (i, j) in (64, 64) {\n    store Acc[i, j] = cast<f32>(i - j) * 0.25\n  }\n"
    "  gemm As, Bs, Acc, accumulate=true\n"
    "  copy Acc, C\n}\n";

void check_every_target(const std::string& text, const std::string& bindings) {
  auto k = parse_and_verify(text, "case.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto want = run_bytes(*k, bindings, 4);
  REQUIRE_MESSAGE(want.is_ok(), want.status().str());
  int lowered = 0;
  for (const std::string& t : builtin_target_names()) {
    CAPTURE(t);
    auto r = lower_text(text, t);
    if (!r.is_ok()) {
      CHECK(r.status().code() == ErrorCode::Unsupported);
      continue;
    }
    ++lowered;
    auto back = read_lowered(print_kernel(r->kernel), target(t), "lowered");
    REQUIRE_MESSAGE(back.is_ok(), back.status().str());
    auto got = run_bytes(*back, bindings, 4);
    REQUIRE_MESSAGE(got.is_ok(), got.status().str());
    CHECK(*got == *want);
  }
  CHECK(lowered >= 4);
}

}  // namespace

TEST_CASE("a store into a fragment by index writes its shared copy, copied in before and back after") {
  auto r = lower_text(kTriangle, "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  REQUIRE(alloc_of(r->kernel, "f_staged"));
  std::string text = print_kernel(r->kernel);
  size_t in = text.find("copy f, f_staged"), loop = text.find("parallel"), back = text.find("copy f_staged, f,");
  REQUIRE(in != std::string::npos);
  REQUIRE(back != std::string::npos);
  CHECK(in < loop);
  CHECK(loop < back);
  CHECK(text.find("store f_staged[i, j]") != std::string::npos);
  CHECK(text.find("store f[") == std::string::npos);
  CHECK(log_has(*r, "and 1 copied back after it"));
}

TEST_CASE("partial stores keep the other elements, on every target and at edge shapes") {
  for (const char* shape : {"M=1,N=1", "M=16,N=32", "M=23,N=71"}) {
    CAPTURE(shape);
    check_every_target(kTriangle, shape);
  }
}

TEST_CASE("a fragment stored by index and then accumulated into by a gemm keeps its values") {
  check_every_target(kIntoAccumulator, "");
}

TEST_CASE("misuse: read_lowered refuses a lowered parallel loop that stores into a fragment") {
  auto r = lower_text(kTriangle, "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  std::string text = print_kernel(r->kernel);
  size_t at = text.find("store f_staged[");
  REQUIRE(at != std::string::npos);
  text.replace(at, std::string("store f_staged[").size(), "store f[");
  auto back = read_lowered(text, target("sm_90a"), "forged");
  REQUIRE_FALSE(back.is_ok());
  CHECK(back.status().message().find("stores into fragment 'f' by index") != std::string::npos);
  CHECK(back.status().str().find("case.tile:4:3") != std::string::npos);
}

}  // namespace fragment_stores_go_through_shared_copy_test
