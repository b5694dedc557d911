// The verifier accepts the legitimate edge uses of each op and types every expression.
#include <doctest/doctest.h>

#include "ir/Parser.h"

namespace verifier_accepts_test {

using namespace tegula;
using namespace tegula::ir;

static Status check(const char* text) {
  auto k = parse_and_verify(text, "ok.tile");
  return k.is_ok() ? Status::ok() : k.status();
}

TEST_CASE("copy may overhang the edge of a global tensor and start at its last element") {
  Status st = check(
      "kernel k(A: f32[100, 100]) grid(1) threads(32) {\n"
      "  alloc T: shared f32[64, 64]\n"
      "  copy A[99, 64], T\n"
      "  copy T, A[64, 99]\n"
      "}\n");
  CHECK_MESSAGE(st.is_ok(), st.str());
}

TEST_CASE("copy with an explicit extent between two sub-tiles") {
  Status st = check(
      "kernel k(A: f32[M, N]) grid(1) threads(32) {\n"
      "  alloc T: shared f32[64, 64]\n"
      "  alloc F: fragment f32[32, 32]\n"
      "  copy T[32, 0], F[0, 16], extent=[16, 16]\n"
      "  copy A[0, 0], A[16, 16], extent=[8, 8]\n"
      "}\n");
  CHECK_MESSAGE(st.is_ok(), st.str());
}

TEST_CASE("gemm with transposes and every float accumulator") {
  Status st = check(
      "kernel k(A: f32[1]) grid(1) threads(128) {\n"
      "  alloc P: shared e4m3[32, 64]\n"
      "  alloc Q: shared e5m2[16, 32]\n"
      "  alloc C: fragment f16[64, 16]\n"
      "  alloc I: shared i8[16, 16]\n"
      "  alloc U: fragment u8[16, 16]\n"
      "  alloc D: fragment i32[16, 16]\n"
      "  gemm P, Q, C, trans_a=true, trans_b=true\n"
      "  gemm I, U, D, accumulate=true\n"
      "}\n");
  CHECK_MESSAGE(st.is_ok(), st.str());
}

TEST_CASE("reduce into the kept-dimension form and the removed form") {
  Status st = check(
      "kernel k(A: f32[1]) grid(1) threads(32) {\n"
      "  alloc T: fragment f32[8, 16, 4]\n"
      "  alloc R1: fragment f32[8, 1, 4]\n"
      "  alloc R2: fragment f32[8, 4]\n"
      "  reduce T, R1, op=max, axis=1\n"
      "  reduce T, R2, op=min, axis=1, clear=false\n"
      "}\n");
  CHECK_MESSAGE(st.is_ok(), st.str());
}

TEST_CASE("expressions are typed") {
  auto k = parse_and_verify(
      "kernel k(A: f64[8], H: f16[8], s: f32, n: i32) grid(n) threads(8) {\n"
      "  parallel i in 8 {\n"
      "    store A[i] = A[i] * s\n"
      "    store H[i] = H[i] * s + cast<f16>(i / 2)\n"
      "  }\n"
      "}\n");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  const Stmt& par = k->body.stmts[0];
  const Expr& f64_expr = par.body().stmts[0].value();
  CHECK(f64_expr->type == Type::floating(DType::F64));
  const Expr& f32_expr = par.body().stmts[1].value();
  CHECK(f32_expr->type == Type::floating(DType::F32));
  const Expr& div = f32_expr->args[1]->args[0];
  CHECK(div->type == Type::index());
  CHECK(k->grid[0]->type == Type::index());
}

}  // namespace verifier_accepts_test
