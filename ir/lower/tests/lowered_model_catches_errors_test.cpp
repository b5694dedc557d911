// The interpreter's model of lowered kernels has teeth: a lowered kernel whose decisions are
// tampered with (a fragment layout that does not match its instruction, a reduction plan
// missing a step) runs to different results than the original, so the lowering tests can
// fail.
#include "ir/lower/Distribution.h"

#include <cstdint>
#include "ir/lower/tests/LowerTestUtil.h"

namespace lowered_model_catches_errors_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

Stmt* find_alloc(Kernel& k, const std::string& name) {
  for (Stmt& s : k.body.stmts)
    if (s.op == OpKind::Alloc && s.name == name) return &s;
  return nullptr;
}

Stmt* find_op(Block& b, OpKind op) {
  for (Stmt& s : b.stmts) {
    if (s.op == op) return &s;
    for (Block& inner : s.blocks)
      if (Stmt* f = find_op(inner, op)) return f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a fragment layout that disagrees with its mma instruction gives wrong results") {
  auto k = parse_and_verify(testing::example_text("gemm/gemm_f16.tile"), "gemm");
  REQUIRE(k.is_ok());
  auto want = testing::run_bytes(*k, "M=128,N=128,K=64", 3);
  REQUIRE(want.is_ok());
  auto lowered = lower(*k, testing::target("sm_80"));
  REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
  auto good = testing::run_bytes(lowered->kernel, "M=128,N=128,K=64", 3);
  REQUIRE(good.is_ok());
  CHECK(*good == *want);

  // Swap the first two thread factors of the accumulator (lane t%4 and t/4 exchanged).
  Kernel bad = lowered->kernel;
  Stmt* acc = find_alloc(bad, "Acc");
  REQUIRE(acc);
  auto d = get_distribution(acc->attrs, "layout");
  REQUIRE(d.is_ok());
  Distribution swapped = *d;
  std::swap(swapped.threads[0], swapped.threads[1]);
  set_distribution(acc->attrs, "layout", swapped);
  auto got = testing::run_bytes(bad, "M=128,N=128,K=64", 3);
  REQUIRE(got.is_ok());
  CHECK(*got != *want);

  // Exchange the order of the repeat factors: registers then hold other atoms.
  bad = lowered->kernel;
  acc = find_alloc(bad, "Acc");
  Distribution reordered = *d;
  std::swap(reordered.values[reordered.values.size() - 1], reordered.values[reordered.values.size() - 2]);
  set_distribution(acc->attrs, "layout", reordered);
  got = testing::run_bytes(bad, "M=128,N=128,K=64", 3);
  REQUIRE(got.is_ok());
  CHECK(*got != *want);
}

TEST_CASE("a reduction plan missing a shuffle step gives wrong results") {
  auto k = parse_and_verify(testing::example_text("reduce/row_sum.tile"), "row_sum");
  REQUIRE(k.is_ok());
  auto want = testing::run_bytes(*k, "M=8,N=1000", 4);
  REQUIRE(want.is_ok());
  auto lowered = lower(*k, testing::target("sm_90a"));
  REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
  Kernel bad = lowered->kernel;
  Stmt* reduce = find_op(bad.body, OpKind::Reduce);
  REQUIRE(reduce);
  std::vector<int64_t> shuffle = stmt_attr_ints(*reduce, "plan.shuffle");
  REQUIRE(shuffle.size() >= 2);
  shuffle.pop_back();
  set_attr(reduce->attrs, "plan.shuffle", AttrValue::of_ints(shuffle));
  auto got = testing::run_bytes(bad, "M=8,N=1000", 4);
  REQUIRE(got.is_ok());
  CHECK(*got != *want);
}

TEST_CASE("a fragment layout that leaves an element to no thread gives wrong results") {
  auto k = parse_and_verify(testing::example_text("elementwise/silu_mul.tile"), "silu");
  REQUIRE(k.is_ok());
  auto want = testing::run_bytes(*k, "N=2048", 2);
  REQUIRE(want.is_ok());
  auto lowered = lower(*k, testing::target("sm_90a"));
  REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
  Kernel bad = lowered->kernel;
  Stmt* x = find_alloc(bad, "x");
  auto d = get_distribution(x->attrs, "layout");
  REQUIRE(d.is_ok());
  Distribution holes = *d;
  holes.values.back().size -= 1;  // the last value group is dropped: elements with no owner
  holes.threads.push_back({holes.thread_count() == bad.threads ? 1 : 1, -1, 0});
  set_distribution(x->attrs, "layout", holes);
  auto got = testing::run_bytes(bad, "N=2048", 2);
  REQUIRE(got.is_ok());
  CHECK(*got != *want);
}

}  // namespace lowered_model_catches_errors_test
