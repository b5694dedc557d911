// Right-aligned broadcasting in map (ir/OpList.h) lowers on every built-in target and the
// lowered kernel computes the original: a 1-D shared tile and a 1-D fragment broadcast along
// the rows of a 2-D fragment map (the fragment operand takes the destination's layout with
// the leading axis removed, so every thread holds what it reads), and a 2-D fragment along
// the first axis of a 3-D map.
#include "ir/lower/tests/LowerCases.h"
#include "ir/tests/RunUtil.h"

namespace map_broadcast_rank_lowering_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

const char* kBroadcast =
    "kernel b(X: f32[16, 64], W: f32[64], V: f32[3, 64], Y: f32[16, 64], Z: f32[2, 3, 64]) grid(1) threads(64) {\n"
    "  alloc x: fragment f32[16, 64]\n"
    "  alloc w: shared f32[64]\n"
    "  alloc wf: fragment f32[64]\n"
    "  alloc v: fragment f32[3, 64]\n"
    "  alloc z: fragment f32[2, 3, 64]\n"
    "  copy X, x\n  copy W, w\n  copy W, wf\n  copy V, v\n"
    "  map x = x * w + wf\n"
    "  copy x, Y\n"
    "  fill z, 1.0\n"
    "  map z = z + v\n"
    "  copy z, Z\n"
    "}\n";

}  // namespace

TEST_CASE("lower-rank map operands lower on every target and compute the original") {
  std::vector<double> x(16 * 64), w(64), v(3 * 64);
  for (size_t i = 0; i < x.size(); ++i) x[i] = double(int(i % 37)) - 18;
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.5 * double(i % 9) + 1;
  for (size_t i = 0; i < v.size(); ++i) v[i] = double(i % 13) * 3;
  std::vector<Value> args = {Value::tensor(x), Value::tensor(w), Value::tensor(v),
                             Value::tensor(std::vector<double>(16 * 64, 0)),
                             Value::tensor(std::vector<double>(2 * 3 * 64, 0))};
  auto k = parse_and_verify(kBroadcast, "broadcast.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  std::vector<Value> want = args;
  REQUIRE(run_parsed(*k, want).is_ok());
  for (const std::string& t : builtin_target_names()) {
    CAPTURE(t);
    auto r = lower(*k, target(t));
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    auto back = read_lowered(print_kernel(r->kernel), "lowered");
    REQUIRE_MESSAGE(back.is_ok(), back.status().str());
    std::vector<Value> got = args;
    Status st = run_parsed(*back, got);
    REQUIRE_MESSAGE(st.is_ok(), st.str());
    for (size_t i = 0; i < args.size(); ++i) CHECK(got[i].values == want[i].values);
  }
}

}  // namespace map_broadcast_rank_lowering_test
