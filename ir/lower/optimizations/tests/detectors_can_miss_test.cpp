// A detector reports absence when its marker is not there, and a cell whose target could use
// the optimization but whose lowering did not apply it is MISSED, with what happened instead:
// the matrix cannot say "yes" by construction.
#include "ir/Parser.h"
#include "ir/lower/optimizations/tests/RowCases.h"

namespace detectors_can_miss_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::optimizations;

namespace {

/// The row's detector on its kernel lowered for `target`, applicability not asked.
Evidence detect_on(const char* row, const char* target) {
  const Optimization* o = find_optimization(row);
  REQUIRE(o);
  auto k = parse_and_verify(o->kernel, row);
  REQUIRE(k.is_ok());
  auto t = builtin_target(target);
  REQUIRE(t.is_ok());
  auto r = lower(*k, *t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return o->detect(*r);
}

Evidence never(const LowerResult&) { return {false, "nothing here"}; }
std::string anywhere(const TargetDescription&) { return ""; }

}  // namespace

TEST_CASE("detectors find nothing in kernels lowered for targets without the optimization") {
  Evidence tma = detect_on("bulk_tensor_copy", "sm_80");
  CHECK_FALSE(tma.found);
  CHECK(tma.marker.find("no copy has plan.engine=bulk") != std::string::npos);
  Evidence wgmma = detect_on("wgmma", "sm_80");
  CHECK_FALSE(wgmma.found);
  CHECK(wgmma.marker.find("mma.kind=mma_sync") != std::string::npos);
  CHECK_FALSE(detect_on("swizzled_shared", "sm_80").found);
  CHECK_FALSE(detect_on("register_prefetch", "sm_80").found);
  CHECK_FALSE(detect_on("tcgen05", "sm_90a").found);
  CHECK_FALSE(detect_on("padded_shared", "gfx942").found);
}

TEST_CASE("an applicable row whose marker is absent, or whose kernel fails, is MISSED with the reason") {
  Optimization row = *find_optimization("bulk_tensor_copy");
  row.detect = never;
  Cell c = evaluate(row, *builtin_target("sm_90a"));
  CHECK(c.state == CellState::Missed);
  CHECK(c.reason == "nothing here");
  // sm_80 lacks the bulk engine; asked anyway, the real detector misses.
  row = *find_optimization("bulk_tensor_copy");
  row.not_applicable = anywhere;
  c = evaluate(row, *builtin_target("sm_80"));
  CHECK(c.state == CellState::Missed);
  CHECK(c.reason.find("plan.engine=bulk") != std::string::npos);
  row.kernel = "kernel broken(";
  c = evaluate(row, *builtin_target("sm_90a"));
  CHECK(c.state == CellState::Missed);
  CHECK(c.reason.find("does not verify") != std::string::npos);
}

}  // namespace detectors_can_miss_test
