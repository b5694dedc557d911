// Block-level loads lower on every built-in target and the lowered kernel computes what the
// original computes, on data that makes the loaded bounds give zero, one and several
// iterations: variable-length segments in serial and pipelined loops (asynchronous copies
// staged ahead of a trip count known only at run time), a paged gemm whose pipelined loop
// runs over a block table (the gemm left in flight on sm_90a), and an if on a loaded flag.
// Lowering treats the loaded values as unknown: no range, so no bounds test is dropped.
#include "ir/lower/tests/LowerCases.h"
#include "ir/tests/RunUtil.h"

namespace block_loads_lowering_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// Lower `text` for `target_name`, print and read it back, run both on `args` and compare
/// every tensor element.
void check_lowered_matches(const std::string& text, const std::string& target_name, const std::vector<Value>& args) {
  auto k = parse_and_verify(text, "loads.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto r = lower(*k, target(target_name));
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto back = read_lowered(print_kernel(r->kernel), "lowered");
  REQUIRE_MESSAGE(back.is_ok(), back.status().str());
  std::vector<Value> want = args, got = args;
  Status sw = run_parsed(*k, want), sg = run_parsed(*back, got);
  REQUIRE_MESSAGE(sw.is_ok(), sw.str());
  REQUIRE_MESSAGE(sg.is_ok(), sg.str());
  for (size_t i = 0; i < args.size(); ++i) CHECK(got[i].values == want[i].values);
}

std::vector<double> ramp(size_t n, double step, int period) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = step * double(int(i % size_t(period)) - period / 2);
  return v;
}

const char* kSegmentSum =
    "kernel seg_sum(X: f32[T, 64], Cu: i32[S], Y: f32[B, 64]) grid(B) threads(64) {\n"
    "  alloc acc: fragment f32[1, 64]\n"
    "  alloc row: fragment f32[1, 64]\n"
    "  fill acc, 0.0\n"
    "  for j in Cu[bx] .. Cu[bx + 1] {\n"
    "    copy X[j, 0], row\n"
    "    map acc = acc + row\n"
    "  }\n"
    "  copy acc, Y[bx, 0]\n"
    "}\n";

std::string segment_copy(int stages) {
  return "kernel seg_copy(X: f32[T, 64], Cu: i32[S], Y: f32[T, 64]) grid(S - 1) threads(64) {\n"
         "  alloc rows: shared f32[4, 64]\n"
         "  pipelined j in Cu[bx] .. Cu[bx + 1], stages=" + std::to_string(stages) + " {\n"
         "    copy X[j * 4, 0], rows\n"
         "    copy rows, Y[j * 4, 0]\n"
         "  }\n"
         "}\n";
}

// Block b multiplies its 64 rows of Q by the Np[b] pages of K that row b of the table names.
const char* kPagedGemm =
    "kernel paged(Q: f16[M, 32], K: f16[R, 32], Tbl: i32[B, P], Np: i32[B], C: f32[M, 64]) grid(B) threads(128) {\n"
    "  alloc Qs: shared f16[64, 32]\n"
    "  alloc Ks: shared f16[64, 32]\n"
    "  alloc Acc: fragment f32[64, 64]\n"
    "  copy Q[bx * 64, 0], Qs\n"
    "  fill Acc, 0.0\n"
    "  pipelined p in 0 .. Np[bx], stages=3 {\n"
    "    copy K[Tbl[bx, p] * 64, 0], Ks\n"
    "    gemm Qs, Ks, Acc, accumulate=true, trans_b=true\n"
    "  }\n"
    "  copy Acc, C[bx * 64, 0]\n"
    "}\n";

const char* kFlag =
    "kernel flag(X: f32[N, 64], F: i32[G], Y: f32[N, 64]) grid(ceildiv(N, 16)) threads(64) {\n"
    "  alloc t: fragment f32[16, 64]\n"
    "  copy X[bx * 16, 0], t\n"
    "  if F[bx] != 0 {\n"
    "    map t = t * 2.0\n"
    "  } else {\n"
    "    fill t, -1.0\n"
    "  }\n"
    "  copy t, Y[bx * 16, 0]\n"
    "}\n";

}  // namespace

TEST_CASE("variable-length segments lower on every target and sum what the original sums") {
  // Segments of 0, 1, 5, 0, 13, 1 and 20 rows.
  const std::vector<double> cu = {0, 0, 1, 6, 6, 19, 20, 40};
  std::vector<Value> args = {Value::tensor(ramp(40 * 64, 0.5, 13)), Value::tensor(cu), Value::tensor(std::vector<double>(7 * 64, -9)),
                             Value::scalar(40), Value::scalar(8), Value::scalar(7)};
  for (const std::string& t : builtin_target_names()) {
    CAPTURE(t);
    check_lowered_matches(kSegmentSum, t, args);
  }
}

TEST_CASE("a pipelined loop with loaded bounds runs zero, one and several iterations correctly once lowered") {
  // Segments (in 4-row steps) of 0, 1, 0, 6 and 2 steps; the last rows belong to none.
  const std::vector<double> cu = {0, 0, 1, 1, 7, 9};
  std::vector<Value> args = {Value::tensor(ramp(44 * 64, 0.25, 29)), Value::tensor(cu),
                             Value::tensor(std::vector<double>(44 * 64, -3)), Value::scalar(44), Value::scalar(6)};
  for (int stages : {1, 2, 3}) {
    for (const std::string& t : builtin_target_names()) {
      CAPTURE(stages);
      CAPTURE(t);
      check_lowered_matches(segment_copy(stages), t, args);
    }
  }
}

TEST_CASE("a paged gemm over a block table lowers on every target and computes the original") {
  // Three blocks of Q; pages per block 0, 1 and 3; the table repeats a page.
  const std::vector<double> table = {0, 0, 0, 2, 0, 0, 3, 1, 3};
  const std::vector<double> pages = {0, 1, 3};
  std::vector<Value> args = {Value::tensor(ramp(3 * 64 * 32, 0.5, 7)), Value::tensor(ramp(4 * 64 * 32, 0.25, 11)), Value::tensor(table),
                             Value::tensor(pages), Value::tensor(std::vector<double>(3 * 64 * 64, -1)),
                             Value::scalar(3 * 64), Value::scalar(4 * 64), Value::scalar(3), Value::scalar(3)};
  for (const std::string& t : builtin_target_names()) {
    CAPTURE(t);
    check_lowered_matches(kPagedGemm, t, args);
  }
}

TEST_CASE("an if on a loaded flag lowers on every target and takes the original's branches") {
  std::vector<Value> args = {Value::tensor(ramp(50 * 64, 1, 9)), Value::tensor({0, 3, 1, 0}), Value::tensor(std::vector<double>(50 * 64, 5)),
                             Value::scalar(50), Value::scalar(4)};
  for (const std::string& t : builtin_target_names()) {
    CAPTURE(t);
    check_lowered_matches(kFlag, t, args);
  }
}

TEST_CASE("a loaded offset or bound gives no range: the bounds test stays on that dimension") {
  for (const std::string& t : {std::string("sm_90a"), std::string("host_cpu"), std::string("vulkan_generic")}) {
    CAPTURE(t);
    auto paged = lower_text(kPagedGemm, t);
    REQUIRE_MESSAGE(paged.is_ok(), paged.status().str());
    const Stmt* pipelined = first_op(paged->kernel.body, OpKind::Pipelined);
    REQUIRE(pipelined);
    const Stmt* copy_k = first_op(pipelined->body(), OpKind::Copy);
    REQUIRE(copy_k);
    // K has a symbolic row count, so nothing is proven on rows; columns are (32 of 32).
    CHECK(attr_text(*copy_k, "plan.inbounds") == "[[false, true], []]");
  }
  // With static shapes, a loop variable bounded by constants would prove the rows inside:
  // bounded by a loaded value, it does not.
  const char* fixed =
      "kernel k(X: f32[64, 64], Cu: i32[2], Y: f32[64, 64]) grid(1) threads(64) {\n"
      "  alloc rows: shared f32[4, 64]\n"
      "  for j in 0 .. %s {\n"
      "    copy X[j * 4, 0], rows\n"
      "    copy rows, Y[j * 4, 0]\n"
      "  }\n"
      "}\n";
  auto with_bound = [&](const std::string& bound) {
    std::string text = fixed;
    text.replace(text.find("%s"), 2, bound);
    auto r = lower_text(text, "sm_80");
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    return attr_text(*first_op(r->kernel.body, OpKind::Copy), "plan.inbounds");
  };
  CHECK(with_bound("16") == "[[true, true], []]");
  CHECK(with_bound("Cu[1]") == "[[false, true], []]");
  CHECK(with_bound("min(Cu[1], 16)") == "[[false, true], []]");
}

}  // namespace block_loads_lowering_test
