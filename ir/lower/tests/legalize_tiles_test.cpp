// Tiles that are not a multiple of the instruction are padded (buffers grow, explicit extents
// keep the padding out of global memory) and compute exactly what the original computes.
#include "ir/lower/tests/LowerCases.h"

#include <cstdint>

namespace legalize_tiles_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

TEST_CASE("a 24-row tile is padded to the 32 rows two m16 atoms need") {
  std::string text = gemm_text("f16", 24, 16, 16, 32, ", inst=\"mma_sync.m16n8k16.f16_f32\"");
  auto r = lower_text(text, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(alloc_of(r->kernel, "As")->type.shape == std::vector<int64_t>{32, 16});
  CHECK(alloc_of(r->kernel, "Acc")->type.shape == std::vector<int64_t>{32, 16});
  CHECK(log_has(*r, "buffer 'Acc' padded from [24, 16] to [32, 16]"));
  // Every copy and fill that touched a padded buffer now names its original extent.
  for_each_stmt(r->kernel.body, [](const Stmt& s) {
    if (s.op == OpKind::Copy && s.copy_dst().buffer == "As") CHECK(stmt_attr_ints(s, "extent") == std::vector<int64_t>{24, 16});
    if (s.op == OpKind::Fill) CHECK(stmt_attr_ints(s, "extent") == std::vector<int64_t>{24, 16});
  });
  auto k = parse_and_verify(text, "case");
  for (const char* shape : {"M=24,N=16,K=16", "M=23,N=13,K=33", "M=1,N=1,K=1", "M=50,N=17,K=47"}) {
    CAPTURE(shape);
    auto want = run_bytes(*k, shape, 9);
    auto got = run_bytes(r->kernel, shape, 9);
    REQUIRE(want.is_ok());
    REQUIRE_MESSAGE(got.is_ok(), got.status().str());
    CHECK(*got == *want);
  }
}

TEST_CASE("padding is refused for a fragment a reduction reads whole") {
  std::string text =
      "kernel g(A: f16[24, 16], B: f16[16, 16], C: f32[24]) grid(1) threads(32) {\n"
      "  alloc As: shared f16[24, 16]\n  alloc Bs: shared f16[16, 16]\n  alloc Acc: fragment f32[24, 16]\n"
      "  alloc R: fragment f32[24]\n"
      "  copy A, As\n  copy B, Bs\n  gemm As, Bs, Acc\n  reduce Acc, R, op=sum, axis=1\n  copy R, C\n}\n";
  auto r = lower_text(text, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  // No mma fits without padding, so the gemm falls back to FMA rather than change results.
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") == "fma");
  auto k = parse_and_verify(text, "case");
  auto want = run_bytes(*k, "", 2);
  auto got = run_bytes(r->kernel, "", 2);
  REQUIRE(got.is_ok());
  CHECK(*got == *want);
}

TEST_CASE("misuse: forcing an instruction onto a tile that cannot be padded is an error") {
  std::string text =
      "kernel g(A: f16[24, 16], B: f16[16, 16], C: f32[24]) grid(1) threads(32) {\n"
      "  alloc As: shared f16[24, 16]\n  alloc Bs: shared f16[16, 16]\n  alloc Acc: fragment f32[24, 16]\n"
      "  alloc R: fragment f32[24]\n"
      "  copy A, As\n  copy B, Bs\n  gemm As, Bs, Acc, inst=\"mma_sync.m16n8k16.f16_f32\"\n  reduce Acc, R, op=sum, axis=1\n  copy R, C\n}\n";
  auto r = lower_text(text, "sm_80");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().message().find("cannot be tiled over its groups without padding") != std::string::npos);
  CHECK(r.status().loc().line == 8);
}

}  // namespace legalize_tiles_test
