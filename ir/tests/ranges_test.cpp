// Index-expression ranges: exact on the arithmetic tiles use, "unknown" where a bound cannot
// be known, and never narrower than the values the expression really takes (checked by
// brute force over small variable ranges).
#include <doctest/doctest.h>

#include <functional>

#include "ir/Parser.h"
#include "ir/Ranges.h"

namespace ranges_test {

using namespace tegula::ir;

namespace {

/// The offset expression of the first copy in a one-copy kernel.
Expr offset_of(const std::string& e, const std::string& params = "") {
  std::string text = "kernel k(A: f32[4096, 4096], B: f32[4096, 4096]" + params +
                     ") grid(32, 16) threads(32) {\n  for i in 0 .. 8 {\n    copy A[" + e + ", 0], B[0, 0], extent=[1, 1]\n  }\n}\n";
  auto k = parse_and_verify(text, "ranges");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return k->body.stmts[0].body().stmts[0].tiles[0].offsets[0];
}

int64_t eval(const Expr& e, const std::map<std::string, int64_t>& v) {
  switch (e->kind) {
    case ExprKind::IntImm: return e->int_value;
    case ExprKind::Var: return v.at(e->name);
    case ExprKind::Unary: return -eval(e->args[0], v);
    default: break;
  }
  int64_t a = eval(e->args[0], v), b = eval(e->args[1], v);
  switch (e->binary) {
    case BinaryOp::Add: return a + b;
    case BinaryOp::Sub: return a - b;
    case BinaryOp::Mul: return a * b;
    case BinaryOp::Div: return a / b;
    case BinaryOp::Mod: return a % b;
    case BinaryOp::CeilDiv: return (a + b - 1) / b;
    case BinaryOp::Max: return std::max(a, b);
    case BinaryOp::Min: return std::min(a, b);
    case BinaryOp::BitAnd: return a & b;           // non-negative words here: plain C++ is the rule
    case BinaryOp::Shr: return a >> (b & 31);
    case BinaryOp::ShrLogical: return a >> (b & 31);
    default: FAIL("unexpected operator"); return 0;
  }
}

}  // namespace

TEST_CASE("a tile origin made of a block index and a loop variable has the exact range") {
  RangeMap vars = {{"by", {0, 31}}, {"k", {0, 63}}};
  Expr e = offset_of("by * 128 + 64");
  auto r = expr_range(e, vars);
  REQUIRE(r.has_value());
  CHECK(r->lo == 64);
  CHECK(r->hi == 31 * 128 + 64);
}

TEST_CASE("grid ranges come from a constant grid only") {
  auto k = parse_and_verify("kernel k(A: f32[N]) grid(ceildiv(N, 64), 7) threads(32) {\n}\n", "grid");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  RangeMap g = grid_ranges(*k);
  CHECK(g.count("bx") == 0);
  REQUIRE(g.count("by") == 1);
  CHECK(g["by"].lo == 0);
  CHECK(g["by"].hi == 6);
}

TEST_CASE("unknown variables, loads and signed division give no range") {
  RangeMap vars = {{"bx", {0, 31}}, {"i", {-4, 4}}};
  CHECK_FALSE(expr_range(offset_of("bx + n", ", n: i32"), vars).has_value());
  CHECK_FALSE(expr_range(offset_of("i / 2"), vars).has_value());
  CHECK_FALSE(expr_range(offset_of("bx % n", ", n: i32"), vars).has_value());
}

TEST_CASE("masks and right shifts of non-negative words have a range; other bit operators have none") {
  RangeMap vars = {{"bx", {0, 100}}, {"i", {-4, 4}}};
  auto masked = expr_range(offset_of("bx & 7"), vars);
  REQUIRE(masked.has_value());
  CHECK(masked->lo == 0);
  CHECK(masked->hi == 7);
  auto shifted = expr_range(offset_of("bx >> 2"), vars);
  REQUIRE(shifted.has_value());
  CHECK(shifted->hi == 25);
  // A shift count is taken modulo 32: bx >> 34 is bx >> 2.
  auto wrapped = expr_range(offset_of("bx >>> 34"), vars);
  REQUIRE(wrapped.has_value());
  CHECK(wrapped->hi == 25);
  CHECK_FALSE(expr_range(offset_of("i >> 1"), vars).has_value());  // negative words shift in ones
  CHECK_FALSE(expr_range(offset_of("bx | 1"), vars).has_value());
  CHECK_FALSE(expr_range(offset_of("bx << 1"), vars).has_value());
}

TEST_CASE("products beyond 64 bits give no range instead of overflowing") {
  RangeMap vars = {{"bx", {0, int64_t(1) << 40}}};
  CHECK_FALSE(expr_range(offset_of("bx * 1099511627775"), vars).has_value());
  CHECK_FALSE(expr_range(offset_of("bx * bx * bx"), vars).has_value());
}

TEST_CASE("every value an expression takes lies inside its range (brute force)") {
  const char* exprs[] = {"bx * 3 - by", "max(bx, by * 2) - min(i, 3)", "(bx + i) / 3", "(bx * 5 + i) % 7", "ceildiv(bx, 4) * 2",
                         "-(bx - 2 * i)", "bx % 64", "(bx * 3) & 5", "(bx + i) >> 1", "(bx * 7) >>> 33"};
  RangeMap vars = {{"bx", {0, 9}}, {"by", {1, 4}}, {"i", {0, 5}}};
  for (const char* text : exprs) {
    CAPTURE(text);
    Expr e = offset_of(text);
    auto r = expr_range(e, vars);
    REQUIRE(r.has_value());
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t bx = 0; bx <= 9; ++bx)
      for (int64_t by = 1; by <= 4; ++by)
        for (int64_t i = 0; i <= 5; ++i) {
          int64_t v = eval(e, {{"bx", bx}, {"by", by}, {"i", i}});
          lo = std::min(lo, v), hi = std::max(hi, v);
          CHECK(v >= r->lo);
          CHECK(v <= r->hi);
        }
    // Sums and products of independent variables are exact; here every bound is reached.
    if (std::string(text) == "bx * 3 - by") {
      CHECK(r->lo == lo);
      CHECK(r->hi == hi);
    }
  }
}

}  // namespace ranges_test
