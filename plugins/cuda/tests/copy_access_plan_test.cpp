// plan_copy_access, the plan half of emit_copy (codegen/TileAccess.h), decided without
// emitting a line: a copy keeps the plan's vector groups only where every shared side keeps
// them contiguous (else they split into single elements, each index shifted), moves raw
// bytes only between equal encodings outside registers (never for e5m2, whose stores
// saturate), and tests only the global dimensions lowering did not prove inside.
#include <doctest/doctest.h>

#include "plugins/cuda/codegen/TileAccess.h"

namespace copy_access_plan_test {

using namespace tegula;
using namespace tegula::cuda::gen;

namespace {

Buffer buffer(const std::string& name, ir::Scope scope, DType d) {
  Buffer b;
  b.name = name;
  b.cname = "g_" + name;
  b.scope = scope;
  b.dtype = d;
  b.shape = {16, 64};
  return b;
}

std::vector<Elem> groups_of(int64_t n) {
  Elem e;
  e.idx = {"r", "c"};
  e.n = n;
  e.slot = 0;
  return {e};
}

}  // namespace

TEST_CASE("vector groups stay whole where every shared side allows them") {
  Buffer g = buffer("X", ir::Scope::Global, DType::F32), sh = buffer("S", ir::Scope::Shared, DType::F32);
  Side src{&g, {"0", "0"}, {}, false, {}}, dst{&sh, {"0", "0"}, {0, 0}, false, {}};
  CopyAccess a = plan_copy_access(src, dst, groups_of(4), ir::CopyPlan{}, 2, {false, true});
  CHECK(a.n == 4);
  REQUIRE(a.elems.size() == 1);
  CHECK(a.raw);
}

TEST_CASE("a shared side that cannot take the vector splits it into single elements") {
  Buffer g = buffer("X", ir::Scope::Global, DType::F32), sh = buffer("S", ir::Scope::Shared, DType::F32);
  Side src{&g, {"0", "0"}, {}, false, {}}, dst{&sh, {"0", "0"}, {0, 0}, false, {}};
  CopyAccess a = plan_copy_access(src, dst, groups_of(4), ir::CopyPlan{}, 2, {false, false});
  CHECK(a.n == 1);
  REQUIRE(a.elems.size() == 4);
  CHECK(a.elems[0].idx.back() == "c");
  CHECK(a.elems[3].idx.back() == "(c + 3)");
  CHECK(a.elems[3].slot == 3);
  // A shared tile at a run-time offset never keeps vectors.
  Side moving{&sh, {"o1", "0"}, {}, false, {}};
  CHECK(plan_copy_access(src, moving, groups_of(4), ir::CopyPlan{}, 2, {true, true}).n == 1);
}

TEST_CASE("raw bytes move only between equal encodings outside registers, never e5m2") {
  Buffer g = buffer("X", ir::Scope::Global, DType::F16), h = buffer("Y", ir::Scope::Global, DType::F32);
  Buffer e5 = buffer("E", ir::Scope::Global, DType::E5M2), e5b = buffer("F", ir::Scope::Global, DType::E5M2);
  Buffer frag = buffer("f", ir::Scope::Fragment, DType::F16);
  auto side = [](const Buffer& b) { return Side{&b, {"0", "0"}, {0, 0}, false, {}}; };
  CHECK(plan_copy_access(side(g), side(g), groups_of(1), ir::CopyPlan{}, 2, {}).raw);
  CHECK_FALSE(plan_copy_access(side(g), side(h), groups_of(1), ir::CopyPlan{}, 2, {}).raw);
  CHECK_FALSE(plan_copy_access(side(e5), side(e5b), groups_of(1), ir::CopyPlan{}, 2, {}).raw);
  CHECK_FALSE(plan_copy_access(side(frag), side(g), groups_of(1), ir::CopyPlan{}, 2, {}).raw);
}

TEST_CASE("only global dimensions that lowering proved inside drop their test") {
  Buffer g = buffer("X", ir::Scope::Global, DType::F32), sh = buffer("S", ir::Scope::Shared, DType::F32);
  Side src{&g, {"0", "0"}, {}, false, {}}, dst{&sh, {"0", "0"}, {0, 0}, false, {}};
  ir::CopyPlan plan;
  plan.src_in.dims = {true, false};
  plan.dst_in.dims = {true, true};  // a shared side has no test to drop, whatever it says
  CopyAccess a = plan_copy_access(src, dst, groups_of(1), plan, 2, {});
  CHECK(a.src_in == std::vector<bool>{true, false});
  CHECK(a.dst_in == std::vector<bool>{false, false});
  CHECK(plan_copy_access(src, dst, groups_of(1), ir::CopyPlan{}, 2, {}).src_in == std::vector<bool>{false, false});
}

}  // namespace copy_access_plan_test
