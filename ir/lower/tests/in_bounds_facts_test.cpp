// prove_in_bounds records, per copy and atomic_add, the dimensions of each global side that
// the index ranges keep inside the tensor (plan.inbounds): from a constant grid, from serial
// loop bounds, and for tiles without offsets; nothing for a symbolic size, an origin that can
// be negative, or a tile that can reach one element past the edge. The interpreter's lowered
// model checks every claim on every run, so a wrong fact fails loudly (last test case).
#include "ir/lower/Lowered.h"
#include "ir/lower/tests/LowerCases.h"

namespace in_bounds_facts_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// plan.inbounds of the n-th copy or atomic_add in program order ("" when absent).
std::string claims_of(const Kernel& k, size_t n) {
  std::vector<const Stmt*> ops;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (s.op == OpKind::Copy || s.op == OpKind::AtomicAdd) ops.push_back(&s);
  });
  REQUIRE(n < ops.size());
  return attr_text(*ops[n], "plan.inbounds");
}

Kernel lowered(const std::string& text) {
  auto r = lower_text(text, "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return r->kernel;
}

/// The lowered kernel computes the original's bytes (every claim checked on the way).
void check_runs(const std::string& text, const Kernel& lowered_kernel, const std::string& bindings) {
  auto k = parse_and_verify(text, "case.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto want = run_bytes(*k, bindings, 2);
  auto got = run_bytes(lowered_kernel, bindings, 2);
  REQUIRE_MESSAGE(want.is_ok(), want.status().str());
  REQUIRE_MESSAGE(got.is_ok(), got.status().str());
  CHECK(*got == *want);
}

std::string tile_copy(const std::string& shape, const std::string& grid, const std::string& rows, const std::string& cols) {
  return "kernel g(X: f32" + shape + ", Y: f32" + shape + ") grid(" + grid + ") threads(128) {\n  alloc S: shared f32[16, 64]\n" +
         "  copy X[" + rows + ", " + cols + "], S\n  copy S, Y[" + rows + ", " + cols + "]\n}\n";
}

}  // namespace

TEST_CASE("a constant grid over a static tensor proves every dimension of both copies") {
  std::string text = tile_copy("[64, 128]", "2, 4", "by * 16", "bx * 64");
  Kernel k = lowered(text);
  CHECK(claims_of(k, 0) == "[[true, true], []]");
  CHECK(claims_of(k, 1) == "[[], [true, true]]");
  CHECK(get_copy_plan(*first_op(k.body, OpKind::Copy))->src_in.all());
  check_runs(text, k, "");
}

TEST_CASE("a grid one block too wide proves only the dimension that fits") {
  // bx reaches 2: columns 128 .. 191 of a 128-column tensor. by stays inside.
  std::string text = tile_copy("[64, 128]", "3, 4", "by * 16", "bx * 64");
  Kernel k = lowered(text);
  CHECK(claims_of(k, 0) == "[[true, false], []]");
  CHECK(claims_of(k, 1) == "[[], [true, false]]");
  check_runs(text, k, "");
}

TEST_CASE("the edge: a tile ending exactly at the tensor's end is inside, one more element is not") {
  Kernel exact = lowered(tile_copy("[16, 129]", "1", "0", "65"));
  CHECK(claims_of(exact, 0) == "[[true, true], []]");
  Kernel past = lowered(tile_copy("[16, 129]", "1", "0", "66"));
  CHECK(claims_of(past, 0) == "[[true, false], []]");
  check_runs(tile_copy("[16, 129]", "1", "0", "66"), past, "");
}

TEST_CASE("symbolic sizes, grids and origins that can be negative prove nothing") {
  CHECK(claims_of(lowered(tile_copy("[M, N]", "2, 4", "by * 16", "bx * 64")), 0).empty());
  // A symbolic grid dimension leaves its block index without a range; the other keeps its.
  CHECK(claims_of(lowered(tile_copy("[64, N]", "ceildiv(N, 64), 4", "by * 16", "bx * 64")), 0) == "[[true, false], []]");
  CHECK(claims_of(lowered(tile_copy("[64, N]", "2, 4", "by * 16", "bx * 64")), 0) == "[[true, false], []]");
  std::string negative = tile_copy("[64, 128]", "2, 4", "by * 16 - 1", "bx * 64");
  CHECK(claims_of(lowered(negative), 0) == "[[false, true], []]");
}

TEST_CASE("serial loop bounds give their variable a range inside the body only") {
  auto loop = [](int64_t trips) {
    return "kernel g(X: f32[16, 128], Y: f32[16, 128]) grid(1) threads(64) {\n  alloc S: shared f32[16, 32]\n" +
           std::string("  for k in 0 .. ") + std::to_string(trips) + " {\n    copy X[0, k * 32], S\n    copy S, Y[0, k * 32]\n  }\n}\n";
  };
  Kernel four = lowered(loop(4));
  CHECK(claims_of(four, 0) == "[[true, true], []]");
  CHECK(claims_of(four, 1) == "[[], [true, true]]");
  check_runs(loop(4), four, "");
  Kernel five = lowered(loop(5));
  CHECK(claims_of(five, 0) == "[[true, false], []]");
  check_runs(loop(5), five, "");
}

TEST_CASE("a tile without offsets starts at the origin; atomic adds get facts too") {
  std::string text =
      "kernel g(X: f32[16, 64], Y: f32[16, 64]) grid(1) threads(64) {\n  alloc S: shared f32[16, 64]\n"
      "  copy X, S\n  atomic_add S, Y[0, 0]\n}\n";
  Kernel k = lowered(text);
  CHECK(claims_of(k, 0) == "[[true, true], []]");
  CHECK(claims_of(k, 1) == "[[], [true, true]]");
  check_runs(text, k, "");
}

TEST_CASE("a wrong claim is an error when the lowered kernel runs") {
  // Symbolic sizes: nothing is proven. A forged claim that the source stays inside is false
  // for the last row of blocks when M is off the tile, and the lowered model says so.
  std::string text = tile_copy("[M, N]", "ceildiv(N, 64), ceildiv(M, 16)", "by * 16", "bx * 64");
  Kernel k = lowered(text);
  Stmt* copy = nullptr;
  for (Stmt& s : k.body.stmts)
    if (s.op == OpKind::Copy && !copy) copy = &s;
  REQUIRE(copy);
  set_attr(copy->attrs, "plan.inbounds", AttrValue::of_list({AttrValue::of_list({AttrValue::of_bool(true), AttrValue::of_bool(false)}),
                                                             AttrValue::of_list({})}));
  // Inside where the shape is a multiple of the tile: no error.
  check_runs(text, k, "M=32,N=64");
  auto bad = run_bytes(k, "M=21,N=64", 2);
  REQUIRE_FALSE(bad.is_ok());
  CHECK(bad.status().message().find("plan.inbounds claims the source tile stays inside 'X' in dimension 0") != std::string::npos);
  CHECK(bad.status().loc().line == 3);
}

}  // namespace in_bounds_facts_test
