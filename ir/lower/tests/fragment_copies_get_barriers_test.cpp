// The copy stage_fragment_reads writes before a parallel loop gets its barriers from
// insert_barriers, like every other shared write: one between the copy and the loop that
// reads it (other threads read what each thread wrote), and one before the copy wherever an
// earlier loop, or the previous trip of an enclosing loop, may still be reading the copy it
// overwrites; none where nothing read it before.
#include "ir/lower/tests/LowerCases.h"

namespace fragment_copies_get_barriers_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

std::vector<OpKind> ops_of(const Block& b) {
  std::vector<OpKind> ops;
  for (const Stmt& s : b.stmts)
    if (s.op != OpKind::Alloc) ops.push_back(s.op);
  return ops;
}

bool copies_into(const Stmt& s, const std::string& name) { return s.op == OpKind::Copy && s.copy_dst().buffer == name; }

}  // namespace

TEST_CASE("straight-line code: one barrier, between the copy and the loop") {
  std::string text =
      "kernel g(X: f32[64], Y: f32[64]) grid(1) threads(64) {\n  alloc f: fragment f32[64]\n  copy X[0], f\n"
      "  parallel i in 64 {\n    store Y[i] = f[63 - i]\n  }\n}\n";
  auto r = lower_text(text, "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  std::vector<OpKind> want = {OpKind::Copy, OpKind::Copy, OpKind::Barrier, OpKind::Parallel};
  CHECK(ops_of(r->kernel.body) == want);
  CHECK(copies_into(r->kernel.body.stmts[3], "f_staged"));  // after the two allocs and X -> f
}

TEST_CASE("inside a serial loop, the copy waits for the previous trip's reads") {
  // Trip k + 1 overwrites f_staged with 2^(k+1) X while slow threads of trip k may still read
  // 2^k X from it: without the barrier before the copy that is a race (Y[k] would mix both).
  std::string text =
      "kernel g(X: f32[64], Y: f32[4, 64]) grid(1) threads(64) {\n  alloc f: fragment f32[64]\n  copy X[0], f\n"
      "  for k in 0 .. 4 {\n    parallel i in 64 {\n      store Y[k, i] = f[63 - i]\n    }\n    map f = f * 2.0\n  }\n}\n";
  auto r = lower_text(text, "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* loop = first_op(r->kernel.body, OpKind::For);
  REQUIRE(loop);
  std::vector<OpKind> want = {OpKind::Barrier, OpKind::Copy, OpKind::Barrier, OpKind::Parallel, OpKind::Map};
  CHECK(ops_of(loop->body()) == want);
  CHECK(copies_into(loop->body().stmts[1], "f_staged"));
  auto k = parse_and_verify(text, "case.tile");
  CHECK(*run_bytes(r->kernel, "", 1) == *run_bytes(*k, "", 1));
}

TEST_CASE("nested serial loops: the innermost copy waits for reads of the previous inner and outer trips") {
  std::string text =
      "kernel g(X: f32[64], Y: f32[3, 2, 64]) grid(1) threads(64) {\n  alloc f: fragment f32[64]\n  copy X[0], f\n"
      "  for a in 0 .. 3 {\n    for b in 0 .. 2 {\n      parallel i in 64 {\n        store Y[a, b, i] = f[(i + 5) % 64]\n      }\n"
      "      map f = f + 1.0\n    }\n  }\n}\n";
  auto r = lower_text(text, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* outer = first_op(r->kernel.body, OpKind::For);
  REQUIRE(outer);
  const Stmt* inner = first_op(outer->body(), OpKind::For);
  REQUIRE(inner);
  std::vector<OpKind> want = {OpKind::Barrier, OpKind::Copy, OpKind::Barrier, OpKind::Parallel, OpKind::Map};
  CHECK(ops_of(inner->body()) == want);
  auto k = parse_and_verify(text, "case.tile");
  CHECK(*run_bytes(r->kernel, "", 1) == *run_bytes(*k, "", 1));
}

TEST_CASE("a second loop reading the same fragment: the recopy waits for the first loop's reads") {
  std::string text =
      "kernel g(X: f32[64], Y: f32[2, 64]) grid(1) threads(64) {\n  alloc f: fragment f32[64]\n  copy X[0], f\n"
      "  parallel i in 64 {\n    store Y[0, i] = f[63 - i]\n  }\n  map f = f * 3.0\n"
      "  parallel i in 64 {\n    store Y[1, i] = f[63 - i]\n  }\n}\n";
  auto r = lower_text(text, "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  std::vector<OpKind> want = {OpKind::Copy, OpKind::Copy,    OpKind::Barrier, OpKind::Parallel, OpKind::Map,
                              OpKind::Barrier, OpKind::Copy, OpKind::Barrier, OpKind::Parallel};
  CHECK(ops_of(r->kernel.body) == want);
  auto k = parse_and_verify(text, "case.tile");
  CHECK(*run_bytes(r->kernel, "", 1) == *run_bytes(*k, "", 1));
}

}  // namespace fragment_copies_get_barriers_test
