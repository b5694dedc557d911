// Reductions share their scratch buffer: one per accumulator dtype, as large as the largest
// need among the reductions that use it, so a kernel with many reductions (attention's row
// maximum and row sum, softmax) pays for one. Each reduce still names the buffer it uses,
// read_lowered still checks that buffer is large enough, and the shared footprint shrinks by
// exactly the buffers no longer allocated.
#include "ir/Analysis.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/tests/LowerCases.h"

namespace reductions_share_scratch_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

// Two f32 reductions across warps with different partial counts (4 rows, then 2 rows per
// block of 128 threads), and one f64 reduction.
const char* kThreeReductions = R"(
kernel three(X: f32[M, N], D: f64[M, N], Y: f32[M, 1], Z: f32[M, 1], W: f64[M, 1]) grid(ceildiv(M, 4)) threads(128) {
  alloc x: fragment f32[4, 512]
  alloc h: fragment f32[2, 512]
  alloc d: fragment f64[2, 256]
  alloc rx: fragment f32[4, 1]
  alloc rh: fragment f32[2, 1]
  alloc rd: fragment f64[2, 1]
  copy X[bx * 4, 0], x
  copy X[bx * 4, 0], h
  copy D[bx * 4, 0], d
  reduce x, rx, op=max, axis=1
  reduce h, rh, op=sum, axis=1
  reduce d, rd, op=sum, axis=1
  copy rx, Y[bx * 4, 0]
  copy rh, Z[bx * 4, 0]
  copy rd, W[bx * 4, 0]
}
)";

std::vector<const Stmt*> scratch_allocs(const Kernel& k) {
  std::vector<const Stmt*> out;
  for (const Stmt& s : k.body.stmts)
    if (s.op == OpKind::Alloc && s.name.rfind("tg_scratch", 0) == 0) out.push_back(&s);
  return out;
}

std::vector<ReducePlan> reduce_plans(const Kernel& k) {
  std::vector<ReducePlan> plans;
  for (const Stmt& s : k.body.stmts) {
    if (s.op != OpKind::Reduce) continue;
    auto p = get_reduce_plan(s);
    REQUIRE_MESSAGE(p.is_ok(), p.status().str());
    plans.push_back(*p);
  }
  return plans;
}

}  // namespace

TEST_CASE("reductions of one accumulator dtype share one scratch, sized for the largest") {
  for (const char* t : {"sm_80", "sm_90a", "gfx942"}) {
    CAPTURE(t);
    auto r = lower_text(kThreeReductions, t);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    std::vector<ReducePlan> plans = reduce_plans(r->kernel);
    REQUIRE(plans.size() == 3);
    for (const ReducePlan& p : plans) REQUIRE(p.uses_scratch());
    CHECK(plans[0].scratch == plans[1].scratch);
    CHECK(plans[0].scratch != plans[2].scratch);
    std::vector<const Stmt*> scratch = scratch_allocs(r->kernel);
    REQUIRE(scratch.size() == 2);
    for (const Stmt* a : scratch) {
      int64_t need = 0;
      for (const ReducePlan& p : plans)
        if (p.scratch == a->name) need = std::max(need, p.partials());
      CHECK(a->type.shape == std::vector<int64_t>{128, need});
      CHECK(a->type.dtype == (a->name == plans[2].scratch ? DType::F64 : DType::F32));
    }
    CHECK(plans[0].partials() != plans[1].partials());
  }
}

TEST_CASE("softmax's two reductions allocate one scratch buffer") {
  auto r = lower_text(example_text("softmax/softmax_rows.tile"), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(scratch_allocs(r->kernel).size() <= 1);
  std::string used;
  for_each_stmt(r->kernel.body, [&](const Stmt& s) {
    if (s.op != OpKind::Reduce) return;
    auto p = get_reduce_plan(s);
    REQUIRE(p.is_ok());
    if (!p->uses_scratch()) return;
    if (used.empty()) used = p->scratch;
    CHECK(p->scratch == used);
  });
}

TEST_CASE("read_lowered refuses a shared scratch shrunk below one of its reductions' needs") {
  auto r = lower_text(kThreeReductions, "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  std::vector<ReducePlan> plans = reduce_plans(r->kernel);
  int64_t smaller = std::min(plans[0].partials(), plans[1].partials());
  for (Stmt& s : r->kernel.body.stmts)
    if (s.op == OpKind::Alloc && s.name == plans[0].scratch) s.type.shape[1] = smaller;
  auto back = read_lowered(print_kernel(r->kernel), target("sm_90a"), "forged.lowered");
  REQUIRE_FALSE(back.is_ok());
  CHECK(back.status().message().find("too small for its partials") != std::string::npos);
}

}  // namespace reductions_share_scratch_test
