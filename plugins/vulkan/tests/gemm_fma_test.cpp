// The fma gemm path matches the reference: f32, f16, bf16 and i8 operands, transposed A or B,
// operands in fragments (registers) or shared memory, accumulate on and off, shapes that are
// not multiples of the tiles, and fixed shapes whose global copies move 16-byte vectors; an
// f64 accumulator over f32 operands sums in f64.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace gemm_fma_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

std::string gemm(const std::string& dt, const std::string& out, bool ta, bool tb, const std::string& a_scope, bool fixed) {
  std::string M = fixed ? "64" : "M", N = fixed ? "64" : "N", K = fixed ? "64" : "K";
  std::string a_shape = ta ? "[" + K + ", " + M + "]" : "[" + M + ", " + K + "]";
  std::string b_shape = tb ? "[" + N + ", " + K + "]" : "[" + K + ", " + N + "]";
  std::string as = ta ? "[16, 32]" : "[32, 16]", bs = tb ? "[32, 16]" : "[16, 32]";
  std::string aoff = ta ? "[k * 16, by * 32]" : "[by * 32, k * 16]", boff = tb ? "[bx * 32, k * 16]" : "[k * 16, bx * 32]";
  std::string acc = dt == "i8" ? "i32" : "f32";
  return "kernel g(A: " + dt + a_shape + ", B: " + dt + b_shape + ", C: " + out + "[" + M + ", " + N + "]) grid(ceildiv(" + N +
         ", 32), ceildiv(" + M + ", 32)) threads(64) {\n"
         "  alloc As: " + a_scope + " " + dt + as + "\n  alloc Bs: shared " + dt + bs + "\n  alloc Acc: fragment " + acc + "[32, 32]\n"
         "  fill Acc, 1.0\n  for k in 0 .. ceildiv(" + K + ", 16) {\n    copy A" + aoff + ", As\n    copy B" + boff + ", Bs\n"
         "    gemm As, Bs, Acc, accumulate=true" + (ta ? ", trans_a=true" : "") + (tb ? ", trans_b=true" : "") +
         "\n  }\n  copy Acc, C[by * 32, bx * 32]\n}\n";
}

}  // namespace

TEST_CASE("fma gemms match the reference across dtypes, transposes and operand scopes") {
  TG_REQUIRE_VULKAN_DEVICE();
  struct Case {
    const char* dt;
    const char* out;
    bool ta, tb;
    const char* a_scope;
    bool fixed;
  };
  const Case cases[] = {{"f32", "f32", false, false, "shared", false}, {"f16", "f16", false, false, "shared", true},
                        {"f16", "f32", true, false, "shared", false},  {"bf16", "bf16", false, true, "shared", false},
                        {"f16", "f16", true, true, "fragment", false}, {"i8", "i32", false, false, "shared", false},
                        {"i8", "i32", false, true, "fragment", true},  {"f32", "f32", false, false, "fragment", true}};
  for (const Case& c : cases) {
    CAPTURE(c.dt);
    CAPTURE(c.ta);
    CAPTURE(c.tb);
    CAPTURE(c.a_scope);
    CAPTURE(c.fixed);
    if (!env().target->has_dtype(*parse_dtype(c.dt))) continue;
    RunSpec spec;
    spec.text = gemm(c.dt, c.out, c.ta, c.tb, c.a_scope, c.fixed);
    spec.bindings = c.fixed ? "" : "M=45,N=70,K=37";
    spec.tol = ulp_tolerance(*parse_dtype(c.out), std::string(c.out) == "f32" ? 64 : 1, 1e-5);
    CHECK(run_compare(spec) == "");
  }
}

TEST_CASE("an f64 accumulator sums f32 products in f64") {
  TG_REQUIRE_VULKAN_DEVICE();
  if (!env().target->has_dtype(DType::F64)) return;
  // f32 operands, f64 accumulator and output: f32 sums would be off in the 8th digit.
  RunSpec spec;
  spec.text = "kernel g(A: f32[32, 64], B: f32[64, 32], C: f64[32, 32]) grid(1) threads(64) {\n"
              "  alloc As: shared f32[32, 64]\n  alloc Bs: shared f32[64, 32]\n  alloc Acc: fragment f64[32, 32]\n"
              "  copy A[0, 0], As\n  copy B[0, 0], Bs\n  fill Acc, 0.0\n  gemm As, Bs, Acc, accumulate=true\n"
              "  copy Acc, C[0, 0]\n}\n";
  spec.tol = ulp_tolerance(DType::F64, 64);
  CHECK(run_compare(spec) == "");
}

}  // namespace gemm_fma_test
