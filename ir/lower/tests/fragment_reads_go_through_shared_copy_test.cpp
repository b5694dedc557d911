// stage_fragment_reads: a parallel loop that reads a fragment by index reads a shared copy
// instead, made by an IR rewrite the later passes see: a row-major shared alloc of the
// fragment's shape and dtype, a `copy` fragment -> shared right before the loop (planned by
// map_threads where the fragment lives), and the loop's loads renamed. The lowered kernel,
// run by the interpreter's lowered model (fragments per thread and register), gives the
// original's bytes, for every dtype and for a fragment in a matrix instruction's layout.
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/tests/LowerCases.h"

namespace fragment_reads_go_through_shared_copy_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// conformance/cases/ParallelCases.cpp, fragment_read: f[15 - i, j] reads another thread's
/// registers.
std::string fragment_read(DType d) {
  std::string t = dtype_name(d);
  std::string value = d == DType::Bool ? "!f[15 - i, j]" : "f[15 - i, j] * 3";
  return "kernel par_fragment(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n" +
         "  alloc f: fragment " + t + "[16, 64]\n  copy X[by * 16, bx * 64], f, pad=1\n  parallel (i, j) in (16, 64) {\n" +
         "    if by * 16 + i < M && bx * 64 + j < N {\n      store Y[by * 16 + i, bx * 64 + j] = " + value + "\n    }\n  }\n}\n";
}

bool loads(const Expr& e, const std::string& name) {
  if (e->kind == ExprKind::Load && e->name == name) return true;
  for (const Expr& a : e->args)
    if (loads(a, name)) return true;
  return false;
}

bool block_loads(const Block& b, const std::string& name) {
  bool found = false;
  for_each_stmt(b, [&](const Stmt& s) {
    for (const Expr& e : s.exprs) found = found || loads(e, name);
  });
  return found;
}

void check_same_bytes(const std::string& text, const std::string& target_name, const std::string& bindings) {
  auto k = parse_and_verify(text, "case.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto r = lower_text(text, target_name);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  // What a backend receives: the printed form, read back for the target.
  auto back = read_lowered(print_kernel(r->kernel), target(target_name), "lowered");
  REQUIRE_MESSAGE(back.is_ok(), back.status().str());
  auto want = run_bytes(*k, bindings, 3);
  auto got = run_bytes(*back, bindings, 3);
  REQUIRE_MESSAGE(want.is_ok(), want.status().str());
  REQUIRE_MESSAGE(got.is_ok(), got.status().str());
  CHECK(*got == *want);
}

}  // namespace

TEST_CASE("a fragment read by index gets a row-major shared copy, written before the loop and read by it") {
  auto r = lower_text(fragment_read(DType::F32), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* copy_alloc = alloc_of(r->kernel, "f_staged");
  REQUIRE(copy_alloc);
  CHECK(copy_alloc->type.scope == Scope::Shared);
  CHECK(copy_alloc->type.dtype == DType::F32);
  CHECK(copy_alloc->type.shape == std::vector<int64_t>{16, 64});
  // Plain row-major (no padding, no swizzle), written as the alloc's layout attributes.
  SharedLayout l = *get_shared_layout(copy_alloc->attrs);
  CHECK(l.block == 0);
  CHECK(l.pad == 0);
  CHECK(l.swizzle_bits == 0);
  CHECK(l.stages == 1);
  CHECK(find_attr(copy_alloc->attrs, "layout.align"));
  // Its bytes count against the budget.
  CHECK(get_kernel_plan(r->kernel)->shared_bytes == 16 * 64 * 4);

  const std::vector<Stmt>& body = r->kernel.body.stmts;
  size_t loop = 0;
  while (loop < body.size() && body[loop].op != OpKind::Parallel) ++loop;
  REQUIRE(loop < body.size());
  const Stmt* copy = nullptr;
  for (size_t i = 0; i < loop; ++i)
    if (body[i].op == OpKind::Copy && body[i].copy_dst().buffer == "f_staged") copy = &body[i];
  REQUIRE(copy);
  CHECK(copy->copy_src().buffer == "f");
  // Thread mapping ran after the rewrite: the copy runs where the fragment lives.
  CHECK(stmt_attr_ident(*copy, "plan.kind") == "fragment");
  CHECK(stmt_attr_ident(*copy, "plan.layout") == "f");
  // The loop reads the copy, never the registers.
  CHECK(block_loads(body[loop].body(), "f_staged"));
  CHECK_FALSE(block_loads(body[loop].body(), "f"));
  CHECK(log_has(*r, "shared 'f_staged' (4096 bytes, row-major) holds its copy"));
}

TEST_CASE("the staged kernel computes the original's bytes, for every dtype") {
  for (int i = 0; i < kNumDTypes; ++i) {
    DType d = DType(i);
    CAPTURE(dtype_name(d));
    for (const char* t : {"sm_80", "sm_90a"}) {
      CAPTURE(t);
      // Edges off the tile: pad elements of the fragment are read too.
      check_same_bytes(fragment_read(d), t, "M=21,N=67");
    }
  }
}

TEST_CASE("a gemm accumulator in an instruction's register layout, read by index, keeps its values") {
  // The accumulator's layout is the matrix instruction's (lane and register order of mma),
  // so a copy that wrote the registers in any other order reads back wrong.
  std::string text =
      "kernel g(A: f16[64, 32], B: f16[32, 64], C: f32[64, 64]) grid(1) threads(128) {\n"
      "  alloc As: shared f16[64, 32]\n  alloc Bs: shared f16[32, 64]\n  alloc Acc: fragment f32[64, 64]\n"
      "  copy A[0, 0], As\n  copy B[0, 0], Bs\n  fill Acc, 0.0\n  gemm As, Bs, Acc, accumulate=true\n"
      "  parallel (i, j) in (64, 64) {\n    store C[i, j] = Acc[63 - i, (j + 7) % 64] - Acc[i, j]\n  }\n}\n";
  for (const char* t : {"sm_80", "sm_90a"}) {
    CAPTURE(t);
    auto r = lower_text(text, t);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    REQUIRE(alloc_of(r->kernel, "Acc_staged"));
    CHECK(get_gemm_plan(*first_op(r->kernel.body, OpKind::Gemm))->inst != "fma");
    check_same_bytes(text, t, "");
  }
}

TEST_CASE("one copy per fragment, shared by every loop that reads it, named apart from every other name") {
  std::string text =
      "kernel g(X: f32[64], f_staged: f32[64], Y: f32[3, 64]) grid(1) threads(64) {\n"
      "  alloc f: fragment f32[64]\n  alloc h: fragment f32[64]\n  copy X[0], f\n  copy f_staged[0], h\n"
      "  parallel i in 64 {\n    store Y[0, i] = f[63 - i] + h[i / 2]\n  }\n"
      "  map f = f + 1.0\n"
      "  parallel i in 64 {\n    store Y[1, i] = f[(i + 1) % 64]\n  }\n"
      "  parallel i in 64 {\n    store Y[2, i] = h[i]\n  }\n}\n";
  auto r = lower_text(text, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  // 'f_staged' is a parameter, so f's copy takes the next free name.
  const Stmt* fc = alloc_of(r->kernel, "f_staged_");
  const Stmt* hc = alloc_of(r->kernel, "h_staged");
  REQUIRE(fc);
  REQUIRE(hc);
  int copies_of_f = 0, copies_of_h = 0;
  for (const Stmt& s : r->kernel.body.stmts) {
    if (s.op != OpKind::Copy) continue;
    copies_of_f += s.copy_dst().buffer == "f_staged_";
    copies_of_h += s.copy_dst().buffer == "h_staged";
  }
  // f is copied before each of its two loops (it changed in between), h before each of its.
  CHECK(copies_of_f == 2);
  CHECK(copies_of_h == 2);
  check_same_bytes(text, "sm_80", "");
}

TEST_CASE("a parallel loop that reads no fragment by index is left alone") {
  auto r = lower_text(example_text("elementwise/silu_mul_parallel.tile"), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  for (const Stmt& s : r->kernel.body.stmts) CHECK(s.name.find("_staged") == std::string::npos);
  CHECK_FALSE(log_has(*r, "holds its copy"));
}

}  // namespace fragment_reads_go_through_shared_copy_test
