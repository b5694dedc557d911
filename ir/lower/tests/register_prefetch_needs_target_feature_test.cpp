// read_lowered(text, target) accepts copies prefetched through registers (plan.engine=
// registers) only for a target whose description claims register_prefetch: the lowering's own
// plan reads back for the Vulkan description, and the same plan forged onto a kernel lowered
// for a target without the feature is refused at the copy.
#include "ir/lower/Lowered.h"
#include "ir/lower/tests/LowerCases.h"

namespace register_prefetch_needs_target_feature_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

const char* kGemm =
    "kernel g(A: f16[M, K], B: f16[K, N], C: f32[M, N]) grid(ceildiv(N, 32), ceildiv(M, 32)) threads(64) {\n"
    "  alloc As: shared f16[32, 16]\n  alloc Bs: shared f16[16, 32]\n  alloc Acc: fragment f32[32, 32]\n"
    "  fill Acc, 0.0\n  pipelined kk in 0 .. ceildiv(K, 16), stages=1 {\n"
    "    copy A[by * 32, kk * 16], As\n    copy B[kk * 16, bx * 32], Bs\n"
    "    gemm As, Bs, Acc, accumulate=true\n  }\n  copy Acc, C[by * 32, bx * 32]\n}\n";

Kernel lowered(const std::string& target_name) {
  auto r = lower_text(kGemm, target_name);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return r->kernel;
}

Status read_back(const Kernel& k, const std::string& target_name) {
  return read_lowered(print_kernel(k), target(target_name), "forged.lowered").status();
}

}  // namespace

TEST_CASE("the lowering's register prefetch reads back for a target that has it") {
  Kernel k = lowered("vulkan_generic");
  const Stmt* copy = first_op(k.body, OpKind::Copy);
  REQUIRE(copy);
  CHECK(get_copy_plan(*copy)->engine == CopyEngine::Registers);
  Status st = read_back(k, "vulkan_generic");
  CHECK_MESSAGE(st.is_ok(), st.str());
}

TEST_CASE("misuse: register prefetch forged for targets without it is refused at the copy") {
  for (const char* t : {"host_cpu", "sm_80"}) {
    CAPTURE(t);
    Kernel k = lowered(t);
    Stmt* loop = const_cast<Stmt*>(first_op(k.body, OpKind::Pipelined));
    REQUIRE(loop);
    CHECK_FALSE(find_attr(loop->attrs, "plan.prefetch"));  // the lowering planned none
    // The first copy of the body, as the Vulkan lowering would have planned it.
    size_t at = 0;
    while (loop->blocks[0].stmts[at].op != OpKind::Copy) ++at;
    Stmt& copy = loop->blocks[0].stmts[at];
    set_attr(copy.attrs, "plan.async", AttrValue::of_bool(true));
    set_attr(copy.attrs, "plan.engine", AttrValue::of_ident("registers"));
    set_attr(loop->attrs, "plan.prefetch", AttrValue::of_ints({int64_t(at)}));
    set_attr(loop->attrs, "plan.stages", AttrValue::of_int(1));
    // Without the target the plan is consistent; with it, the target lacks the feature.
    CHECK(verify_lowered(k).is_ok());
    Status st = read_back(k, t);
    INFO(st.str());
    REQUIRE_FALSE(st.is_ok());
    CHECK(st.code() == ErrorCode::Verify);
    CHECK(st.str().find("plan.engine=registers, but target '" + std::string(t) + "' does not prefetch through registers") !=
          std::string::npos);
    CHECK(st.loc().file == "case.tile");
    CHECK(st.loc().line == 7);  // the copy's line in the .tile text
  }
}

}  // namespace register_prefetch_needs_target_feature_test
