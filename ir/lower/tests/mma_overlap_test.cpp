// plan_mma_overlap (PlanMmaOverlap.cpp) leaves a pipelined loop's gemm in flight across
// iterations exactly where the target's instruction runs in asynchronous groups
// (async_groups: wgmma on sm_90a) and the rules allow it, says so or says why not in the
// explanation, and read_lowered refuses, with the location of the attribute, a plan.inflight
// the rules do not allow: on a target or an instruction without async_groups, on a loop with
// two gemms, one stage or no prefetches, on an f16 accumulator, on an accumulator another statement uses, on
// an operand tile a statement other than the prefetched copies writes (a dequantised weight), or
// naming a statement that is not the gemm.
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/tests/LowerCases.h"

#include <algorithm>

namespace mma_overlap_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

struct Case {
  std::string in = "bf16", acc = "f32";
  int stages = 3;
  std::string extra;  ///< statements after the gemm, in the loop body
};

std::string gemm(const Case& c) {
  return "kernel g(A: " + c.in + "[256, 256], B: " + c.in + "[256, 256], C: " + c.acc +
         "[256, 256]) grid(2, 2) threads(128) {\n"
         "  alloc As: shared " +
         c.in + "[128, 32]\n  alloc Bs: shared " + c.in + "[32, 128]\n  alloc Acc: fragment " + c.acc +
         "[128, 128]\n"
         "  alloc Acc2: fragment " +
         c.acc +
         "[128, 128]\n"
         "  fill Acc, 0.0\n  fill Acc2, 0.0\n"
         "  pipelined k in 0 .. 8, stages=" +
         std::to_string(c.stages) +
         " {\n"
         "    copy A[by * 128, k * 32], As\n    copy B[k * 32, bx * 128], Bs\n"
         "    gemm As, Bs, Acc, accumulate=true\n" +
         c.extra +
         "  }\n"
         "  copy Acc, C[by * 128, bx * 128]\n}\n";
}

LowerResult lowered(const Case& c, const std::string& target_name = "sm_90a") {
  auto r = lower_text(gemm(c), target_name);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return std::move(*r);
}

Stmt& loop_of(Kernel& k) {
  Stmt* loop = const_cast<Stmt*>(first_op(k.body, OpKind::Pipelined));
  REQUIRE(loop);
  return *loop;
}

int64_t gemm_index(Stmt& loop) {
  auto& body = loop.blocks[0].stmts;
  for (size_t i = 0; i < body.size(); ++i)
    if (body[i].op == OpKind::Gemm) return int64_t(i);
  FAIL("no gemm in the loop");
  return -1;
}

int64_t inflight_of(Kernel& k) { return get_pipeline_plan(loop_of(k))->inflight; }

/// The lowered kernel with plan.inflight forged onto its loop, read back for `target_name`:
/// refused with `needle`, at the loop (line 8 of the case), or, for an attribute its reader
/// refuses, at the attribute in the lowered text.
void check_refused(Kernel k, int64_t index, const std::string& target_name, const std::string& needle,
                   const TargetDescription* described = nullptr, bool at_attribute = false) {
  Stmt& loop = loop_of(k);
  set_attr(loop.attrs, "plan.inflight", AttrValue::of_int(index));
  TargetDescription t = described ? *described : target(target_name);
  auto r = read_lowered(print_kernel(k), t, "forged.lowered");
  Status st = r.status();
  INFO(st.str());
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == ErrorCode::Verify);
  CHECK(st.str().find(needle) != std::string::npos);
  CHECK(st.loc().file == (at_attribute ? "forged.lowered" : "case.tile"));
  if (!at_attribute) CHECK(st.loc().line == 8);
}

}  // namespace

TEST_CASE("a wgmma gemm stays in flight where the rules allow, and explain says so") {
  LowerResult r = lowered({});
  REQUIRE(get_gemm_plan(*first_op(r.kernel.body, OpKind::Gemm))->kind == InstructionKind::Wgmma);
  CHECK(inflight_of(r.kernel) == gemm_index(loop_of(r.kernel)));
  CHECK(log_has(r, "gemm into 'Acc' stays in flight across iterations"));
  auto back = read_lowered(print_kernel(r.kernel), target("sm_90a"), "lowered");
  CHECK_MESSAGE(back.is_ok(), back.status().str());
}

TEST_CASE("every iteration waits where the rules do not allow it, and explain says why") {
  struct Want {
    Case c;
    std::string why;
  };
  for (const Want& w :
       {Want{{"f16", "f16", 3, ""}, "accumulator 'Acc' is f16"},
        Want{{"bf16", "f32", 1, ""}, "the loop prefetches nothing, so it runs as a plain loop"},
        Want{{"bf16", "f32", 3, "    gemm As, Bs, Acc2, accumulate=true\n"}, "the loop body has 2 gemms"},
        Want{{"bf16", "f32", 3, "    map Acc = Acc * 0.5\n"},
             "another statement of the loop uses accumulator 'Acc'"},
        Want{{"bf16", "f32", 3, "    fill Bs, 0.0\n"},
             "a statement of the loop other than its prefetched copies writes operand 'Bs'"},
        Want{{"bf16", "f32", 3, "    parallel (i, j) in (128, 32) {\n      store As[i, j] = 1.0\n    }\n"},
             "a statement of the loop other than its prefetched copies writes operand 'As'"}}) {
    CAPTURE(w.why);
    LowerResult r = lowered(w.c);
    CHECK(inflight_of(r.kernel) == -1);
    CHECK(log_has(r, "the gemm waits for its matrix instructions every iteration: " + w.why));
  }
  // Instructions that do not run in groups: nothing to decide, nothing said.
  for (const char* t : {"sm_80", "sm_100a"}) {
    CAPTURE(t);
    LowerResult r = lowered({}, t);
    CHECK(inflight_of(r.kernel) == -1);
    CHECK_FALSE(log_has(r, "every iteration"));
    CHECK_FALSE(log_has(r, "in flight"));
  }
}

TEST_CASE("read_lowered refuses a gemm left in flight the rules do not allow") {
  SUBCASE("on a target without instructions that run in groups") {
    for (const char* t : {"sm_80", "sm_100a"}) {
      CAPTURE(t);
      LowerResult r = lowered({}, t);
      check_refused(r.kernel, gemm_index(loop_of(r.kernel)), t, "runs in asynchronous groups (async_groups)");
    }
  }
  SUBCASE("on an instruction the description does not say runs in groups") {
    LowerResult r = lowered({});
    TargetDescription t = target("sm_90a");
    for (MatrixInstruction& mi : t.matrix_instructions) mi.async_groups = false;
    // Lowered for this very description: only the instruction's flag differs.
    set_attr(r.kernel.attrs, "lower.target_hash", AttrValue::of_string(target_hash(t)));
    check_refused(r.kernel, gemm_index(loop_of(r.kernel)), "sm_90a", "async_groups", &t);
  }
  SUBCASE("on a loop with two gemms") {
    LowerResult r = lowered({"bf16", "f32", 3, "    gemm As, Bs, Acc2, accumulate=true\n"});
    check_refused(r.kernel, gemm_index(loop_of(r.kernel)), "sm_90a", "the loop body has 2 gemms");
  }
  SUBCASE("on a loop that prefetches nothing") {
    LowerResult r = lowered({"bf16", "f32", 1, ""});
    check_refused(r.kernel, gemm_index(loop_of(r.kernel)), "sm_90a", "the loop prefetches nothing");
  }
  SUBCASE("on a loop of one stage") {
    LowerResult r = lowered({});
    // One stage (as when shared memory left room for no more): its copies then signal
    // through no barriers.
    std::vector<Attr>& attrs = loop_of(r.kernel).attrs;
    set_attr(attrs, "plan.stages", AttrValue::of_int(1));
    attrs.erase(std::remove_if(attrs.begin(), attrs.end(), [](const Attr& a) { return a.name == "plan.barriers"; }), attrs.end());
    check_refused(r.kernel, gemm_index(loop_of(r.kernel)), "sm_90a", "the loop runs with one stage");
  }
  SUBCASE("on an f16 accumulator") {
    LowerResult r = lowered({"f16", "f16", 3, ""});
    check_refused(r.kernel, gemm_index(loop_of(r.kernel)), "sm_90a", "accumulator 'Acc' is f16");
  }
  SUBCASE("on an accumulator another statement uses") {
    LowerResult r = lowered({"bf16", "f32", 3, "    map Acc = Acc * 0.5\n"});
    check_refused(r.kernel, gemm_index(loop_of(r.kernel)), "sm_90a",
                  "another statement of the loop uses accumulator 'Acc'");
  }
  SUBCASE("on an operand another statement writes") {
    LowerResult r = lowered({"bf16", "f32", 3, "    fill Bs, 0.0\n"});
    check_refused(r.kernel, gemm_index(loop_of(r.kernel)), "sm_90a", "writes operand 'Bs'");
  }
  SUBCASE("naming a statement that is not the gemm") {
    LowerResult r = lowered({});
    check_refused(r.kernel, 0, "sm_90a", "'plan.inflight' must be the index of a gemm in the loop body", nullptr, true);
    check_refused(r.kernel, 99, "sm_90a", "'plan.inflight' must be an integer in 0..", nullptr, true);
  }
}

}  // namespace mma_overlap_test
