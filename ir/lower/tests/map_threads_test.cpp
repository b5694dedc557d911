// Thread mapping: vector widths follow what alignment can be proven, and the assumptions a
// launch must keep are recorded.
#include "ir/lower/Distribution.h"
#include "ir/lower/tests/LowerCases.h"

namespace map_threads_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

static const Stmt* copy_into(const Kernel& k, const std::string& dst) {
  const Stmt* found = nullptr;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (s.op == OpKind::Copy && s.copy_dst().buffer == dst && !found) found = &s;
  });
  return found;
}

TEST_CASE("without a divisibility guarantee, global rows of unknown length are read one element at a time") {
  auto r = lower_text(gemm_text("f16", 64, 64, 32, 128), "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(stmt_attr_int(*copy_into(r->kernel, "As"), "plan.vec") == 1);
  CHECK(find_attr(r->kernel.attrs, "lower.assume") == nullptr);
}

TEST_CASE("with K a multiple of 16, 16-byte vectors; the assumption is recorded") {
  LowerOptions o;
  o.divisibility = {{"K", 16}, {"N", 8}};
  auto r = lower_text(gemm_text("f16", 64, 64, 32, 128), "sm_80", o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(stmt_attr_int(*copy_into(r->kernel, "As"), "plan.vec") == 8);
  CHECK(stmt_attr_int(*copy_into(r->kernel, "Bs"), "plan.vec") == 8);
  CHECK(attr_text(r->kernel, "lower.assume") == "[[K, 16], [N, 8]]");
}

TEST_CASE("a 1-D tensor of unknown length is read one element at a time: a vector could straddle its end") {
  const char* text = "kernel k(X: f32[N], Y: f32[N]) grid(ceildiv(N, 256)) threads(64) {\n"
                     "  alloc s: shared f32[256]\n  copy X[bx * 256], s, pad=0.0\n  copy s, Y[bx * 256]\n}\n";
  auto r = lower_text(text, "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(stmt_attr_int(*copy_into(r->kernel, "s"), "plan.vec") == 1);
  LowerOptions o;
  o.divisibility = {{"N", 16}};
  auto v = lower_text(text, "sm_90a", o);
  REQUIRE_MESSAGE(v.is_ok(), v.status().str());
  CHECK(stmt_attr_int(*copy_into(v->kernel, "s"), "plan.vec") == 4);
  CHECK(attr_text(v->kernel, "lower.assume") == "[[N, 16]]");
}

TEST_CASE("parallel loops get a plan that covers every iteration once") {
  auto r = lower_text(example_text("elementwise/silu_mul_parallel.tile"), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* p = first_op(r->kernel.body, OpKind::Parallel);
  REQUIRE(p);
  auto d = get_distribution(p->attrs, "plan");
  REQUIRE(d.is_ok());
  CHECK(d->thread_count() == 256);
  CHECK(check_coverage(*d, {1024}, false).is_ok());
}

}  // namespace map_threads_test
