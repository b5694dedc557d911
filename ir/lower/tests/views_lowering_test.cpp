// Rank-dropping views (ir/OpList.h, copy) lower on every built-in target and the lowered
// kernel computes what the original computes: 2-D tiles of one head of a 4-D tensor through
// shared memory, a fragment and atomic_add into a 3-D view (the S tail and a head past H
// masked), and a pipelined gemm whose K tiles are copied from a 4-D view ahead of the gemm.
// On sm_90a that copy takes cp.async, not the tensor copy engine, and says why.
#include "ir/lower/tests/LowerCases.h"
#include "ir/tests/RunUtil.h"

namespace views_lowering_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

void check_lowered_matches(const std::string& text, const std::string& target_name, const std::vector<Value>& args) {
  auto k = parse_and_verify(text, "views.tile");
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

const char* kHeads =
    "kernel heads(Q: bf16[B, H, S, 64], O: f32[B, H, S, 64], P: f32[H, S, 64]) grid(ceildiv(S, 16), H + 1, B) "
    "threads(64) {\n"
    "  alloc Qs: shared bf16[16, 64]\n"
    "  alloc F: fragment f32[16, 64]\n"
    "  copy Q[bz, by, bx * 16, 0], Qs, pad=-1.0\n"
    "  copy Qs, F\n"
    "  map F = F * 2.0\n"
    "  copy F, O[bz, by, bx * 16, 0]\n"
    "  atomic_add F, P[by, bx * 16, 0]\n"
    "}\n";

std::string head_gemm(int stages) {
  return "kernel hgemm(Q: bf16[B, H, S, 32], K: bf16[B, H, T, 32], C: f32[B, H, S, T]) grid(ceildiv(S, 64), H, B) "
         "threads(128) {\n"
         "  alloc Qs: shared bf16[64, 32]\n"
         "  alloc Ks: shared bf16[64, 32]\n"
         "  alloc Acc: fragment f32[64, 64]\n"
         "  copy Q[bz, by, bx * 64, 0], Qs\n"
         "  pipelined j in 0 .. ceildiv(T, 64), stages=" +
         std::to_string(stages) +
         " {\n"
         "    copy K[bz, by, j * 64, 0], Ks\n"
         "    gemm Qs, Ks, Acc, trans_b=true\n"
         "    copy Acc, C[bz, by, bx * 64, j * 64]\n"
         "  }\n"
         "}\n";
}

}  // namespace

TEST_CASE("views of a 4-D tensor lower on every target and compute the original") {
  // B = 2, H = 3, S = 21: a tail of 5 rows in each head, and the grid's fourth head past H.
  std::vector<Value> args = {Value::tensor(ramp(2 * 3 * 21 * 64, 0.5, 23)),
                             Value::tensor(std::vector<double>(2 * 3 * 21 * 64, -7)),
                             Value::tensor(std::vector<double>(3 * 21 * 64, 1)),
                             Value::scalar(2),
                             Value::scalar(3),
                             Value::scalar(21)};
  for (const std::string& t : builtin_target_names()) {
    CAPTURE(t);
    check_lowered_matches(kHeads, t, args);
  }
}

TEST_CASE("a pipelined gemm over a 4-D view lowers on every target and computes the original") {
  // B = 1, H = 2, S = 70, T = 100: tails along S and T in each head.
  std::vector<Value> args = {Value::tensor(ramp(2 * 70 * 32, 0.25, 7)),
                             Value::tensor(ramp(2 * 100 * 32, 0.5, 11)),
                             Value::tensor(std::vector<double>(2 * 70 * 100, -1)),
                             Value::scalar(1),
                             Value::scalar(2),
                             Value::scalar(70),
                             Value::scalar(100)};
  for (int stages : {1, 3}) {
    for (const std::string& t : builtin_target_names()) {
      CAPTURE(stages);
      CAPTURE(t);
      check_lowered_matches(head_gemm(stages), t, args);
    }
  }
}

TEST_CASE("a copy from a view is not given to the tensor copy engine, and the log says why") {
  LowerOptions o;
  o.divisibility = {{"S", 64}, {"T", 64}};
  auto r = lower_text(head_gemm(3), "sm_90a", o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  bool said = false;
  for (const std::string& line : r->log)
    said = said || line.find("the source is a view of a 4-D tensor") != std::string::npos;
  CHECK(said);
  std::string text = print_kernel(r->kernel);
  CHECK(text.find("plan.engine=async") != std::string::npos);
  CHECK(text.find("plan.engine=bulk") == std::string::npos);
}

}  // namespace views_lowering_test
