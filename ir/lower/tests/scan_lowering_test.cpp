// Scans lower on every built-in target to a free plan over their lines (MapThreads.cpp):
// one thread walks each line, the lines spread over the block, replicas where there are
// fewer lines than threads. The lowered form computes what the original computes (the
// interpreter's lowered model checks the plan), barriers fence the shared tiles a scan
// reads and writes, and read_lowered refuses a plan that does not give each line to one
// thread.
#include <algorithm>

#include "ir/lower/Distribution.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/tests/LowerCases.h"

namespace scan_lowering_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// A chunked cumulative sum along rows (the carry across the loop), then a reverse
/// exclusive max along the columns of the last tile.
const char* kScans =
    "kernel scans(X: f32[M, N], Y: f32[M, N], T: f32[M, 1], Z: f32[M, 32]) grid(ceildiv(M, 8)) threads(64) {\n"
    "  alloc xs: shared f32[8, 32]\n"
    "  alloc ys: shared f32[8, 32]\n"
    "  alloc run: shared f32[8, 1]\n"
    "  alloc top: shared f32[1, 32]\n"
    "  alloc zs: shared f32[8, 32]\n"
    "  fill run, 0.0\n"
    "  for j in 0 .. ceildiv(N, 32) {\n"
    "    copy X[bx * 8, j * 32], xs\n"
    "    scan xs, ys, run, op=sum, axis=1\n"
    "    copy ys, Y[bx * 8, j * 32]\n"
    "  }\n"
    "  copy run, T[bx * 8, 0]\n"
    "  fill top, -inf\n"
    "  scan ys, zs, top, op=max, axis=0, reverse=true, exclusive=true\n"
    "  copy zs, Z[bx * 8, 0]\n"
    "}\n";

}  // namespace

TEST_CASE("a scan lowers on every target to a free plan over its lines and computes the original") {
  for (const std::string& tname : builtin_target_names()) {
    CAPTURE(tname);
    auto k = parse_and_verify(kScans, "case.tile");
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    auto r = lower(*k, target(tname));
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    const Stmt* scan = first_op(r->kernel.body, OpKind::Scan);
    REQUIRE(scan != nullptr);
    auto plan = get_copy_plan(*scan);
    REQUIRE_MESSAGE(plan.is_ok(), plan.status().str());
    CHECK(plan->kind == ThreadPlanKind::Free);
    CHECK(check_coverage(plan->threads, {8, 1}, false).is_ok());
    auto back = read_lowered(print_kernel(r->kernel), "lowered");
    REQUIRE_MESSAGE(back.is_ok(), back.status().str());
    for (const char* shape : {"M=8,N=32", "M=13,N=71", "M=1,N=1"}) {
      CAPTURE(shape);
      auto want = run_bytes(*k, shape, 5);
      auto got = run_bytes(*back, shape, 5);
      REQUIRE_MESSAGE(want.is_ok(), want.status().str());
      REQUIRE_MESSAGE(got.is_ok(), got.status().str());
      CHECK(*got == *want);
    }
  }
}

TEST_CASE("barriers fence a scan's shared tiles: after the copy it reads, before the copy of what it wrote") {
  auto r = lower_text(kScans, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* loop = first_op(r->kernel.body, OpKind::For);
  REQUIRE(loop != nullptr);
  std::vector<OpKind> ops;
  for (const Stmt& s : loop->body().stmts) ops.push_back(s.op);
  // copy, barrier, scan, barrier, copy (and a barrier before the next trip's copy).
  size_t scan_at = 0;
  while (scan_at < ops.size() && ops[scan_at] != OpKind::Scan) ++scan_at;
  REQUIRE(scan_at < ops.size());
  REQUIRE(scan_at >= 1);
  CHECK(ops[scan_at - 1] == OpKind::Barrier);
  REQUIRE(scan_at + 1 < ops.size());
  CHECK(ops[scan_at + 1] == OpKind::Barrier);
}

TEST_CASE("read_lowered refuses a scan plan that does not give each line to one thread") {
  auto r = lower_text(kScans, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  Stmt* scan = const_cast<Stmt*>(first_op(r->kernel.body, OpKind::Scan));
  REQUIRE(scan != nullptr);
  SUBCASE("a plan over the elements instead of the lines") {
    set_distribution(scan->attrs, "plan", free_distribution({8, 32}, 64, 1));
    auto back = read_lowered(print_kernel(r->kernel), "forged.lowered");
    REQUIRE_FALSE(back.is_ok());
    CHECK_MESSAGE(back.status().message().find("the scan plan does not cover its lines") != std::string::npos, back.status().str());
    CHECK(back.status().loc().line > 0);
  }
  SUBCASE("a plan over too few threads") {
    set_distribution(scan->attrs, "plan", free_distribution({8, 1}, 32, 1));
    auto back = read_lowered(print_kernel(r->kernel), "forged.lowered");
    REQUIRE_FALSE(back.is_ok());
    CHECK_MESSAGE(back.status().message().find("plan over 32 threads; the block has 64") != std::string::npos, back.status().str());
  }
  SUBCASE("no plan") {
    scan->attrs.erase(std::remove_if(scan->attrs.begin(), scan->attrs.end(),
                                     [](const Attr& a) { return a.name == "plan.kind"; }),
                      scan->attrs.end());
    auto back = read_lowered(print_kernel(r->kernel), "forged.lowered");
    REQUIRE_FALSE(back.is_ok());
    CHECK_MESSAGE(back.status().message().find("a scan runs under a free plan over its lines") != std::string::npos,
                  back.status().str());
  }
}

}  // namespace scan_lowering_test
