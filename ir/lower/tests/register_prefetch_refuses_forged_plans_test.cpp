// read_lowered refuses, with a located error, register-prefetch plans lowering never makes
// (PlanRegisterPrefetch.cpp's rules, which the Vulkan backend emits without re-checking): a
// register copy no loop lists, a copy the rules exclude, registers and a copy engine in one
// loop, more than two stages, two stages of tiles that cannot alternate, and staged tiles in a
// one-stage loop. Each case lowers a real kernel for vulkan_generic and changes one thing.
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/tests/LowerCases.h"

#include <algorithm>

namespace register_prefetch_refuses_forged_plans_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// C = A * B over 32x32 tiles; `after` runs after the loop.
std::string gemm(int stages, const std::string& after = "") {
  return "kernel g(A: f16[M, K], B: f16[K, N], C: f32[M, N]) grid(ceildiv(N, 32), ceildiv(M, 32)) threads(64) {\n"
         "  alloc As: shared f16[32, 16]\n  alloc Bs: shared f16[16, 32]\n  alloc Acc: fragment f32[32, 32]\n"
         "  fill Acc, 0.0\n  pipelined kk in 0 .. ceildiv(K, 16), stages=" + std::to_string(stages) + " {\n"
         "    copy A[by * 32, kk * 16], As\n    copy B[kk * 16, bx * 32], Bs\n"
         "    gemm As, Bs, Acc, accumulate=true\n  }\n" + after + "  copy Acc, C[by * 32, bx * 32]\n}\n";
}

Kernel lowered(const std::string& text) {
  auto r = lower_text(text, "vulkan_generic");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return r->kernel;
}

Stmt& loop_of(Kernel& k) {
  Stmt* loop = const_cast<Stmt*>(first_op(k.body, OpKind::Pipelined));
  REQUIRE(loop);
  return *loop;
}

/// The loop body's statement that copies into `tile`, and its index.
size_t copy_into(Stmt& loop, const std::string& tile) {
  auto& body = loop.blocks[0].stmts;
  for (size_t i = 0; i < body.size(); ++i)
    if (body[i].op == OpKind::Copy && body[i].copy_dst().buffer == tile) return i;
  FAIL("no copy into " << tile);
  return 0;
}

void erase_attr(std::vector<Attr>& attrs, const std::string& name) {
  attrs.erase(std::remove_if(attrs.begin(), attrs.end(), [&](const Attr& a) { return a.name == name; }), attrs.end());
}

void set_stages(Kernel& k, const std::string& tile, int64_t stages) {
  Stmt* a = const_cast<Stmt*>(alloc_of(k, tile));
  SharedLayout l = *get_shared_layout(a->attrs);
  l.stages = stages;
  erase_attr(a->attrs, "layout.stages");  // set_shared_layout writes it only above one stage
  set_shared_layout(a->attrs, l);
}

void check_refused(const Kernel& k, const std::string& needle, int line) {
  auto r = read_lowered(print_kernel(k), target("vulkan_generic"), "forged.lowered");
  Status st = r.status();
  INFO(st.str());
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == ErrorCode::Verify);
  CHECK(st.str().find(needle) != std::string::npos);
  CHECK(st.loc().file == "case.tile");
  CHECK(st.loc().line == line);
}


}  // namespace

TEST_CASE("the unforged plans read back") {
  for (int stages : {1, 2}) {
    Kernel k = lowered(gemm(stages));
    auto r = read_lowered(print_kernel(k), target("vulkan_generic"), "forged.lowered");
    CHECK_MESSAGE(r.is_ok(), r.status().str());
  }
}

TEST_CASE("misuse: a copy prefetched through registers that its loop does not list") {
  Kernel k = lowered(gemm(1));
  Stmt& loop = loop_of(k);
  set_attr(loop.attrs, "plan.prefetch", AttrValue::of_ints({int64_t(copy_into(loop, "As"))}));
  check_refused(k, "a copy prefetched through registers (plan.engine=registers) that no pipelined loop lists", 8);
}

TEST_CASE("misuse: registers for a copy the rules exclude") {
  // The loop's copy from A, which the kernel also writes: registers loaded an iteration ahead
  // would miss the write.
  std::string text =
      "kernel g(A: f32[N], B: f32[N]) grid(1) threads(32) {\n"
      "  alloc S: shared f32[32]\n"
      "  pipelined i in 0 .. ceildiv(N, 32), stages=1 {\n"
      "    copy A[i * 32], S\n    copy S, B[i * 32]\n    copy S, A[i * 32]\n  }\n}\n";
  Kernel k = lowered(text);
  Stmt& loop = loop_of(k);
  REQUIRE_FALSE(find_attr(loop.attrs, "plan.prefetch"));  // A is written: the lowering declined
  size_t at = copy_into(loop, "S");
  Stmt& copy = loop.blocks[0].stmts[at];
  set_attr(copy.attrs, "plan.async", AttrValue::of_bool(true));
  set_attr(copy.attrs, "plan.engine", AttrValue::of_ident("registers"));
  set_attr(loop.attrs, "plan.prefetch", AttrValue::of_ints({int64_t(at)}));
  set_attr(loop.attrs, "plan.stages", AttrValue::of_int(1));
  check_refused(k, "this copy cannot be prefetched through registers", 4);
}

TEST_CASE("misuse: registers and a copy engine in one loop") {
  Kernel k = lowered(gemm(1));
  Stmt& loop = loop_of(k);
  set_attr(loop.blocks[0].stmts[copy_into(loop, "Bs")].attrs, "plan.engine", AttrValue::of_ident("async"));
  // The copy engine's own legality check (CopyEngines.h) refuses the forged copy first.
  check_refused(k, "plan.engine=async on a copy the asynchronous copy unit cannot move", 8);
}

TEST_CASE("misuse: more than two stages of register-prefetched tiles") {
  Kernel k = lowered(gemm(3));
  set_attr(loop_of(k).attrs, "plan.stages", AttrValue::of_int(3));
  set_stages(k, "As", 3);
  set_stages(k, "Bs", 3);
  check_refused(k, "runs with one or two stages, not 3", 6);
}

TEST_CASE("misuse: two stages of tiles that are used outside the loop") {
  Kernel k = lowered(gemm(2, "  fill Acc, 0.0\n  gemm As, Bs, Acc, accumulate=true\n"));
  Stmt& loop = loop_of(k);
  REQUIRE(get_pipeline_plan(loop)->stages == 1);  // the lowering kept one stage
  set_attr(loop.attrs, "plan.stages", AttrValue::of_int(2));
  set_stages(k, "As", 2);
  set_stages(k, "Bs", 2);
  check_refused(k, "two stages (plan.stages=2) of tiles prefetched through registers, but they cannot alternate: 'As' is used outside "
                   "the loop",
                6);
}

TEST_CASE("misuse: a staged tile in a loop that runs with one stage") {
  Kernel k = lowered(gemm(2));
  set_attr(loop_of(k).attrs, "plan.stages", AttrValue::of_int(1));
  set_stages(k, "Bs", 1);
  check_refused(k, "shared buffer 'As' has 2 stages (layout.stages); the loop that prefetches it through registers runs with one", 2);
}

TEST_CASE("misuse: a listed register copy whose plan.async was dropped") {
  Kernel k = lowered(gemm(1));
  Stmt& loop = loop_of(k);
  erase_attr(loop.blocks[0].stmts[copy_into(loop, "As")].attrs, "plan.async");
  check_refused(k, "plan.prefetch names statement 1, which is not an asynchronous copy (plan.async)", 6);
}

}  // namespace register_prefetch_refuses_forged_plans_test
