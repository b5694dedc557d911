// Instruction selection picks the catalogue entry each target offers, explains itself, falls
// back to FMA, and honours or refuses a named instruction.
#include "ir/lower/tests/LowerCases.h"

namespace select_instructions_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

TEST_CASE("each target gets its own instruction family for a bf16 gemm") {
  struct Want {
    const char* target;
    const char* kind;
  };
  for (Want w : {Want{"sm_80", "mma_sync"}, Want{"sm_90a", "wgmma"}, Want{"sm_100a", "tcgen05"}, Want{"gfx942", "mfma"},
                 Want{"host_cpu", "fma"}, Want{"vulkan_generic", "fma"}}) {
    CAPTURE(w.target);
    auto r = lower_text(gemm_text("bf16", 128, 128, 32, 256), w.target);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    const Stmt* g = first_op(r->kernel.body, OpKind::Gemm);
    REQUIRE(g);
    CHECK(attr_text(*g, "mma.kind") == w.kind);
    CHECK(log_has(*r, "gemm 128x128x32 bf16*bf16->f32"));
  }
}

TEST_CASE("the log says why an entry was passed over") {
  // K = 24 is not a multiple of 16: m16n8k16 is refused and m16n8k8 chosen.
  auto r = lower_text(gemm_text("f16", 64, 64, 24, 128), "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(log_has(*r, "not mma_sync.m16n8k16.f16_f32: K = 24 is not a multiple of 16"));
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.atom") == "[16, 8, 8]");
}

TEST_CASE("dtypes without a matrix instruction fall back to FMA") {
  auto r = lower_text(gemm_text("f32", 64, 64, 16, 128), "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* g = first_op(r->kernel.body, OpKind::Gemm);
  CHECK(attr_text(*g, "mma.inst") == "\"fma\"");
  CHECK(log_has(*r, "fma fallback"));
}

TEST_CASE("a named instruction is used, and inst=fma forces the fallback") {
  auto r = lower_text(gemm_text("bf16", 128, 128, 32, 256, ", inst=\"mma_sync.m16n8k16.bf16_f32\""), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") == "mma_sync");
  r = lower_text(gemm_text("bf16", 128, 128, 32, 256, ", inst=fma"), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") == "fma");
}

TEST_CASE("misuse: naming an instruction the target lacks or that cannot fit") {
  auto r = lower_text(gemm_text("bf16", 128, 128, 32, 256, ", inst=\"wgmma.m64nNk16.bf16_f32\""), "sm_80");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Unsupported);
  CHECK(r.status().message().find("has no instruction 'wgmma.m64nNk16.bf16_f32'") != std::string::npos);
  CHECK(r.status().loc().line == 9);
  // wgmma needs a warpgroup of 128 threads; 64 threads cannot issue it.
  r = lower_text(gemm_text("bf16", 64, 64, 32, 64, ", inst=\"wgmma.m64nNk16.bf16_f32\""), "sm_90a");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().message().find("group of 128 threads does not divide the block's 64") != std::string::npos);
}

}  // namespace select_instructions_test
