// Layout assignment: instruction-fixed accumulators, layouts propagated through reductions
// and broadcast maps, descriptor swizzles for shared operands, and conflicts reported with
// both sides.
#include "ir/lower/Distribution.h"

#include <cstdint>
#include "ir/lower/SharedLayout.h"
#include "ir/lower/tests/LowerCases.h"

namespace assign_layouts_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

TEST_CASE("a reduction's result and its broadcast partners replicate the reduced axis") {
  auto r = lower_text(example_text("softmax/softmax_rows.tile"), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto xs = get_distribution(alloc_of(r->kernel, "xs")->attrs, "layout");
  auto m = get_distribution(alloc_of(r->kernel, "m")->attrs, "layout");
  REQUIRE(xs.is_ok());
  REQUIRE(m.is_ok());
  CHECK(check_coverage(*xs, {4, 512}, false).is_ok());
  CHECK(check_coverage(*m, {4, 1}, false).is_ok());
  // Every thread that holds xs[r, c] holds m[r, 0].
  for (int64_t t = 0; t < 128; ++t)
    for (int64_t v = 0; v < xs->value_count(); ++v) {
      auto c = xs->coords(t, v, 2);
      bool held = false;
      for (int64_t w = 0; w < m->value_count(); ++w) held = held || m->coords(t, w, 2)[0] == c[0];
      CHECK(held);
    }
}

TEST_CASE("shared operands of a descriptor-based instruction get its swizzle") {
  auto r = lower_text(gemm_text("bf16", 128, 128, 64, 256), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto as = get_shared_layout(alloc_of(r->kernel, "As")->attrs);
  REQUIRE(as.is_ok());
  CHECK(as->block == 64);  // 128-byte rows of bf16
  CHECK(as->swizzle_bits == 3);
  CHECK(as->align >= 1024);
  CHECK(check_shared_layout(*as, {128, 64}, DType::BF16).is_ok());
}

TEST_CASE("shared tiles read by register-operand instructions get bank padding") {
  auto r = lower_text(gemm_text("f16", 128, 128, 64, 256), "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto as = get_shared_layout(alloc_of(r->kernel, "As")->attrs);
  REQUIRE(as.is_ok());
  CHECK(as->pad == 8);
}

TEST_CASE("gemm operand rows of an even number of 16-byte pieces are padded by one piece, odd ones are not") {
  // 8 rows of 16-byte pieces (one fragment load) hit distinct banks only at an odd stride.
  struct Case {
    int64_t bk;
    int64_t pad;
  };
  for (Case c : {Case{16, 8}, Case{32, 8}, Case{64, 8}, Case{8, 0}, Case{24, 0}}) {
    CAPTURE(c.bk);
    auto r = lower_text(gemm_text("f16", 64, 64, c.bk, 128), "sm_80");
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    auto as = get_shared_layout(alloc_of(r->kernel, "As")->attrs);
    REQUIRE(as.is_ok());
    CHECK(as->pad == c.pad);
    int64_t stride_pieces = (c.bk + as->pad) * 2 / 16;
    if (c.bk * 2 % 16 == 0) CHECK(stride_pieces % 2 == 1);
  }
}

TEST_CASE("a tile no gemm reads keeps rows of 64 bytes unpadded (the bulk copy engine can write it)") {
  std::string text =
      "kernel k(X: f32[64, 16], Y: f32[64, 16]) grid(1) threads(128) {\n"
      "  alloc S: shared f32[64, 16]\n  copy X, S\n  copy S, Y\n}\n";
  auto r = lower_text(text, "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto s = get_shared_layout(alloc_of(r->kernel, "S")->attrs);
  REQUIRE(s.is_ok());
  CHECK(s->pad == 0);
}

TEST_CASE("misuse: one fragment wanted in two different layouts") {
  std::string text =
      "kernel g(A: f16[64, 32], B: f16[32, 64], C: f32[64, 64]) grid(1) threads(128) {\n"
      "  alloc As: shared f16[64, 32]\n  alloc Bs: shared f16[32, 64]\n"
      "  alloc C1: fragment f32[64, 64]\n  alloc C2: fragment f32[64, 64]\n"
      "  copy A, As\n  copy B, Bs\n"
      "  gemm As, Bs, C1\n"
      "  gemm As, Bs, C2\n"
      "  gemm As, Bs, C2, accumulate=true, inst=fma\n"
      "  copy C2, C\n}\n";
  auto r = lower_text(text, "sm_80");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Unsupported);
  const std::string& msg = r.status().message();
  CHECK(msg.find("layout conflict: fragment 'C2'") != std::string::npos);
  CHECK(msg.find("the gemm at case.tile:10:3 (fma)") != std::string::npos);
  CHECK(msg.find("the gemm at case.tile:9:3 (mma_sync") != std::string::npos);
  CHECK(msg.find("give each its own fragment") != std::string::npos);
}

TEST_CASE("free layouts are coalesced: consecutive threads take consecutive vectors") {
  auto r = lower_text(example_text("elementwise/silu_mul.tile"), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto x = get_distribution(alloc_of(r->kernel, "x")->attrs, "layout");
  REQUIRE(x.is_ok());
  CHECK(x->values.front().stride == 1);
  CHECK(x->threads.front().stride == x->values.front().size);
  CHECK(check_coverage(*x, {2048}, false).is_ok());
}

}  // namespace assign_layouts_test
