// The map cases cover every unary and every binary operator and every expression kind a
// map can hold (element indices along each axis of a rank-3 tile included) of the op list
// (ir/OpList.h):
// the operators are read from the kernels the suite generates, so an operator added to the
// list fails this test until conformance/cases/MapCases.cpp has a case that uses it.
#include <doctest/doctest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "conformance/Suite.h"
#include "ir/Parser.h"

namespace map_cases_cover_operators_test {

using namespace tegula;
using namespace tegula::conformance;

namespace {

struct Used {
  std::set<ir::UnaryOp> unary;
  std::set<ir::BinaryOp> binary;
  std::set<ir::ExprKind> kinds;
  std::set<int64_t> index_axes;  ///< the axes idx() reads
  int map_kernels = 0;
};

/// The operators in the map statements of every map case of the suite built for `target`.
Used operators_in_map_cases(const std::string& target) {
  Used used;
  auto t = builtin_target(target);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  std::function<void(const ir::Expr&)> walk = [&](const ir::Expr& e) {
    if (e->kind == ir::ExprKind::Unary) used.unary.insert(e->unary);
    if (e->kind == ir::ExprKind::Binary) used.binary.insert(e->binary);
    if (e->kind == ir::ExprKind::ElemIndex) used.index_axes.insert(e->int_value);
    used.kinds.insert(e->kind);
    for (const ir::Expr& a : e->args) walk(a);
  };
  for (const CaseSpec& c : build_suite(*t)) {
    if (c.name.rfind("tegula.map.", 0) != 0) continue;
    auto k = ir::parse_and_verify(c.kernel, c.name);
    REQUIRE_MESSAGE(k.is_ok(), c.name << ": " << k.status().str());
    for (const ir::Stmt& s : k->body.stmts) {
      if (s.op != ir::OpKind::Map) continue;
      walk(s.value());
      ++used.map_kernels;
    }
  }
  return used;
}

}  // namespace

TEST_CASE("every unary and binary operator has a map case") {
  // The host CPU's description claims every dtype, so every case is one the suite runs.
  Used used = operators_in_map_cases("host_cpu");
  REQUIRE(used.map_kernels > 0);
#define TG_UNARY_COVERED(e, sp) \
  CHECK_MESSAGE(used.unary.count(ir::UnaryOp::e), "no map case uses the unary operator '" sp "'");
  TG_FOR_EACH_UNARY(TG_UNARY_COVERED)
#undef TG_UNARY_COVERED
#define TG_BINARY_COVERED(e, sp, p) \
  CHECK_MESSAGE(used.binary.count(ir::BinaryOp::e), "no map case uses the binary operator '" sp "'");
  TG_FOR_EACH_BINARY(TG_BINARY_COVERED)
#undef TG_BINARY_COVERED
}

TEST_CASE("every expression kind a map can hold has a map case, idx along every axis of a rank-3 tile") {
  Used used = operators_in_map_cases("host_cpu");
  REQUIRE(used.map_kernels > 0);
  // An element load X[i, j] is only legal inside a parallel loop (the verifier refuses it
  // in a map), so it is the one kind no map case can hold.
#define TG_EXPR_COVERED(e, what)             \
  if (ir::ExprKind::e != ir::ExprKind::Load) \
    CHECK_MESSAGE(used.kinds.count(ir::ExprKind::e), "no map case uses the expression kind " #e " (" what ")");
  TG_FOR_EACH_EXPR(TG_EXPR_COVERED)
#undef TG_EXPR_COVERED
  for (int64_t axis = 0; axis < 3; ++axis)
    CHECK_MESSAGE(used.index_axes.count(axis), "no map case reads idx(" << axis << ")");
}

}  // namespace map_cases_cover_operators_test
