// plan_register_prefetch (PlanRegisterPrefetch.cpp): on a target that prefetches through
// registers, a pipelined loop's leading global -> shared copies are loaded one iteration
// ahead (plan.engine=registers, listed in plan.prefetch) and their tiles double-buffered
// when the loop asks for two or more stages, the tiles stay inside the loop and both stages
// fit; the rules that exclude a copy or a tile each keep it out, each decision is explained,
// targets without the feature get no such plan, and the results are the source kernel's.
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/tests/LowerCases.h"

namespace plan_register_prefetch_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// C = A * B over 32x32 tiles, K in steps of 16, as a pipelined loop of `stages`; `after` runs
/// after the loop, `b_dtype` is B's (the tile Bs stays f16).
std::string gemm(int stages, const std::string& after = "", const std::string& b_dtype = "f16") {
  return "kernel g(A: f16[M, K], B: " + b_dtype + "[K, N], C: f32[M, N]) grid(ceildiv(N, 32), ceildiv(M, 32)) threads(64) {\n"
         "  alloc As: shared f16[32, 16]\n  alloc Bs: shared f16[16, 32]\n  alloc Acc: fragment f32[32, 32]\n"
         "  fill Acc, 0.0\n  pipelined kk in 0 .. ceildiv(K, 16), stages=" + std::to_string(stages) + " {\n"
         "    copy A[by * 32, kk * 16], As\n    copy B[kk * 16, bx * 32], Bs\n"
         "    gemm As, Bs, Acc, accumulate=true\n  }\n" + after + "  copy Acc, C[by * 32, bx * 32]\n}\n";
}

LowerResult lowered(const std::string& text, const std::string& target_name = "vulkan_generic") {
  auto r = lower_text(text, target_name);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return std::move(*r);
}

const Stmt& loop_of(const Kernel& k) {
  const Stmt* loop = first_op(k.body, OpKind::Pipelined);
  REQUIRE(loop);
  return *loop;
}

/// The destinations of the copies the loop prefetches through registers.
std::vector<std::string> register_tiles(const Kernel& k) {
  std::vector<std::string> out;
  const Stmt& loop = loop_of(k);
  auto plan = get_pipeline_plan(loop);
  REQUIRE(plan.is_ok());
  for (int64_t i : plan->prefetch) {
    const Stmt& c = loop.body().stmts[size_t(i)];
    auto cp = get_copy_plan(c);
    REQUIRE(cp.is_ok());
    CHECK(cp->async);
    if (cp->engine == CopyEngine::Registers) out.push_back(c.copy_dst().buffer);
  }
  return out;
}

int64_t stages_of(const Kernel& k, const std::string& tile) {
  auto l = get_shared_layout(alloc_of(k, tile)->attrs);
  REQUIRE(l.is_ok());
  return l->stages;
}

int64_t planned_stages(const Kernel& k) { return get_pipeline_plan(loop_of(k))->stages; }

int64_t stage_bytes(const Kernel& k, const std::string& tile) {
  const Stmt* a = alloc_of(k, tile);
  return shared_stage_bytes(*get_shared_layout(a->attrs), a->type.shape, a->type.dtype);
}

}  // namespace

TEST_CASE("both copies of a two-stage loop are prefetched through registers and double-buffered") {
  LowerResult r = lowered(gemm(2));
  CHECK(register_tiles(r.kernel) == std::vector<std::string>{"As", "Bs"});
  CHECK(planned_stages(r.kernel) == 2);
  CHECK(stages_of(r.kernel, "As") == 2);
  CHECK(stages_of(r.kernel, "Bs") == 2);
  // The one-stage kernel's shared memory and a second stage of each tile.
  LowerResult one = lowered(gemm(1));
  CHECK(get_kernel_plan(r.kernel)->shared_bytes ==
        get_kernel_plan(one.kernel)->shared_bytes + stage_bytes(r.kernel, "As") + stage_bytes(r.kernel, "Bs"));
  CHECK(log_has(r, "copy into 'As' loaded one iteration ahead through registers"));
  CHECK(log_has(r, "two stages of 'As', 'Bs' (double-buffered"));
}

TEST_CASE("a loop asking for more stages gets two; one that asks for one keeps one") {
  LowerResult three = lowered(gemm(3));
  CHECK(planned_stages(three.kernel) == 2);
  CHECK(stages_of(three.kernel, "As") == 2);
  LowerResult one = lowered(gemm(1));
  CHECK(register_tiles(one.kernel) == std::vector<std::string>{"As", "Bs"});
  CHECK(planned_stages(one.kernel) == 1);
  CHECK(stages_of(one.kernel, "As") == 1);
  CHECK(log_has(one, "one stage of the prefetched tiles: the loop asks for stages=1"));
}

TEST_CASE("a tile used after the loop keeps one stage") {
  LowerResult r = lowered(gemm(2, "  fill Acc, 0.0\n  gemm As, Bs, Acc, accumulate=true\n"));
  CHECK(register_tiles(r.kernel) == std::vector<std::string>{"As", "Bs"});
  CHECK(planned_stages(r.kernel) == 1);
  CHECK(stages_of(r.kernel, "As") == 1);
  CHECK(log_has(r, "is used outside the loop"));
}

TEST_CASE("a copy that converts its dtype is not prefetched, nor are the copies after it") {
  // B is f32 into an f16 tile: registers would hold the wrong encoding.
  LowerResult r = lowered(gemm(2, "", "f32"));
  CHECK(register_tiles(r.kernel) == std::vector<std::string>{"As"});
  CHECK(planned_stages(r.kernel) == 2);
  CHECK(stages_of(r.kernel, "Bs") == 1);
}

TEST_CASE("a copy from a tensor the kernel writes is not prefetched") {
  std::string text =
      "kernel g(A: f32[N], B: f32[N]) grid(1) threads(32) {\n"
      "  alloc S: shared f32[32]\n"
      "  pipelined i in 0 .. ceildiv(N, 32), stages=2 {\n"
      "    copy A[i * 32], S\n    copy S, B[i * 32]\n    copy S, A[i * 32]\n  }\n}\n";
  LowerResult r = lowered(text);
  CHECK(register_tiles(r.kernel).empty());
  CHECK_FALSE(find_attr(loop_of(r.kernel).attrs, "plan.prefetch"));
  CHECK(log_has(r, "nothing is prefetched through registers"));
  auto k = parse_and_verify(text, "case");
  CHECK(*run_bytes(r.kernel, "N=100", 3) == *run_bytes(*k, "N=100", 3));
}

TEST_CASE("two stages that do not fit the shared memory fall back to one, and say so") {
  TargetDescription t = target("vulkan_generic");
  LowerResult one = lowered(gemm(1));
  t.shared_memory_per_block = get_kernel_plan(one.kernel)->shared_bytes;  // one stage of As and Bs
  auto k = parse_and_verify(gemm(2), "case.tile");
  REQUIRE(k.is_ok());
  auto r = lower(*k, t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(register_tiles(r->kernel) == std::vector<std::string>{"As", "Bs"});
  CHECK(planned_stages(r->kernel) == 1);
  CHECK(stages_of(r->kernel, "As") == 1);
  CHECK(stages_of(r->kernel, "Bs") == 1);
  CHECK(log_has(*r, "bytes of shared memory; target 'vulkan_generic' offers " + std::to_string(t.shared_memory_per_block) + " per block"));
  CHECK(get_kernel_plan(r->kernel)->shared_bytes == t.shared_memory_per_block);
}

TEST_CASE("targets without register prefetching get no register plan") {
  for (const char* t : {"sm_80", "sm_90a", "host_cpu"}) {
    CAPTURE(t);
    LowerResult r = lowered(gemm(2), t);
    CHECK(register_tiles(r.kernel).empty());
    CHECK_FALSE(log_has(r, "through registers"));
  }
}

TEST_CASE("register-prefetched and double-buffered kernels compute what the source does") {
  for (int stages : {1, 2}) {
    CAPTURE(stages);
    LowerResult r = lowered(gemm(stages));
    auto k = parse_and_verify(gemm(stages), "case");
    for (const char* b : {"M=32,N=32,K=16", "M=45,N=70,K=37", "M=32,N=64,K=80"}) {
      CAPTURE(b);
      CHECK(*run_bytes(r.kernel, b, 5) == *run_bytes(*k, b, 5));
    }
  }
}

}  // namespace plan_register_prefetch_test
