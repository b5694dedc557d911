// gemm for every dtype combination the IR allows (f32, tf32, f16, bf16, e4m3/e5m2 and f64
// inputs; f32, f16, bf16 and f64 accumulators; i8/u8/i32 into i32), with trans_a and
// trans_b, accumulate=true and false, tiles that are not multiples of the microkernel's
// rows and columns, and problem sizes that are not multiples of the tiles. Integer gemms
// are exact; float ones within K f32 units of the operands' magnitude, plus one unit of the
// accumulator's dtype.
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace gemm_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

// A (or its transpose AT) and B (or BT) in tiles of BM x BK and BK x BN; C0 seeds the
// accumulator, which must be exact through accumulate=true; a second fragment takes
// accumulate=false products and is added in with a map.
const char* kGemm = R"(
kernel g(A: {TA}[{ASHAPE}], B: {TB}[{BSHAPE}], C0: {TC}[M, N], C: {TC}[M, N], D: {TC}[M, N])
    grid(ceildiv(N, {BN}), ceildiv(M, {BM})) threads(64) {
  alloc as: shared {TA}[{ATILE}]
  alloc bs: shared {TB}[{BTILE}]
  alloc acc: fragment {TC}[{BM}, {BN}]
  alloc one: fragment {TC}[{BM}, {BN}]
  alloc sum: fragment {TC}[{BM}, {BN}]
  copy C0[by * {BM}, bx * {BN}], acc
  fill sum, 0
  for k in 0 .. ceildiv(K, {BK}) {
    copy A[{AOFF}], as
    copy B[{BOFF}], bs
    gemm as, bs, acc, accumulate=true{TRANS}
    gemm as, bs, one{TRANS}
    map sum = sum + one
  }
  copy acc, C[by * {BM}, bx * {BN}]
  copy sum, D[by * {BM}, bx * {BN}]
}
)";

std::string gemm_text(DType a, DType b, DType c, bool ta, bool tb, int bm, int bn, int bk) {
  std::string BM = std::to_string(bm), BN = std::to_string(bn), BK = std::to_string(bk);
  std::string trans;
  if (ta) trans += ", trans_a=true";
  if (tb) trans += ", trans_b=true";
  return subst(kGemm, {{"TA", dtype_name(a)}, {"TB", dtype_name(b)}, {"TC", dtype_name(c)},
                       {"ASHAPE", ta ? "K, M" : "M, K"}, {"BSHAPE", tb ? "N, K" : "K, N"},
                       {"ATILE", ta ? BK + ", " + BM : BM + ", " + BK}, {"BTILE", tb ? BN + ", " + BK : BK + ", " + BN},
                       {"AOFF", ta ? "k * " + BK + ", by * " + BM : "by * " + BM + ", k * " + BK},
                       {"BOFF", tb ? "bx * " + BN + ", k * " + BK : "k * " + BK + ", bx * " + BN},
                       {"BM", BM}, {"BN", BN}, {"BK", BK}, {"TRANS", trans}});
}

Tolerance tolerance(DType a, DType c, int64_t k) {
  if (!dtype_is_float(a)) return Tolerance{};
  if (c == DType::F64 && a == DType::F64) return Tolerance{double(k) * 1e-15, 1e-15};
  // The map adds K / BK products, each rounded to C: a unit of C per step.
  return Tolerance{double(k) * 2.5e-7 + 1e-6, ulps(c, 1.01) * (c == DType::F32 ? 8 : 1.01)};
}

void check_gemm(DType a, DType b, DType c, bool ta, bool tb, int bm, int bn, int bk, const std::string& options = "") {
  std::string text = gemm_text(a, b, c, ta, tb, bm, bn, bk);
  CAPTURE(std::string(dtype_name(a)) + "*" + dtype_name(b) + "->" + dtype_name(c) + (ta ? " ta" : "") + (tb ? " tb" : "") +
          " tile " + std::to_string(bm) + "x" + std::to_string(bn) + "x" + std::to_string(bk) + " " + options);
  for (auto [m, n, k] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{{1, 1, 1}, {bm, bn, bk}, {37, 53, 29}, {50, 90, 41}}) {
    CAPTURE(std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
    check_against_reference(text, {{"M", m}, {"N", n}, {"K", k}}, uint64_t(m * n + k), tolerance(a, c, k), options);
  }
}

}  // namespace

TEST_CASE("f32 microkernel path: every transpose, tiles off the register block") {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      check_gemm(DType::F32, DType::F32, DType::F32, ta, tb, 20, 40, 9);
      check_gemm(DType::F32, DType::F32, DType::F32, ta, tb, 28, 64, 16);
    }
}

TEST_CASE("microkernel shapes chosen by compile options") {
  for (const char* o : {"gemm_mr=1\ngemm_nv=1", "gemm_mr=3\ngemm_nv=1", "gemm_mr=5\ngemm_nv=3", "gemm_mr=16\ngemm_nv=4"})
    check_gemm(DType::F32, DType::F32, DType::F32, false, true, 24, 48, 8, o);
}

TEST_CASE("narrow float inputs with an f32 accumulator") {
  std::vector<std::pair<DType, DType>> inputs = {{DType::F16, DType::F16}, {DType::BF16, DType::BF16}, {DType::TF32, DType::TF32},
                                                 {DType::E4M3, DType::E4M3}, {DType::E5M2, DType::E4M3}, {DType::F32, DType::BF16}};
  for (auto [a, b] : inputs) {
    check_gemm(a, b, DType::F32, false, false, 20, 40, 9);
    check_gemm(a, b, DType::F32, true, true, 28, 64, 16);
  }
}

TEST_CASE("f64 and narrow accumulators (the generic path)") {
  check_gemm(DType::F64, DType::F64, DType::F64, false, false, 20, 40, 9);
  check_gemm(DType::F64, DType::F32, DType::F64, true, false, 16, 8, 5);
  check_gemm(DType::F32, DType::F32, DType::F64, false, true, 16, 8, 5);
  check_gemm(DType::F16, DType::F16, DType::F16, false, false, 20, 40, 9);
  check_gemm(DType::BF16, DType::BF16, DType::BF16, true, false, 16, 8, 5);
  check_gemm(DType::E4M3, DType::E4M3, DType::F16, false, true, 16, 8, 5);
}

TEST_CASE("integer gemms into i32 are exact") {
  for (auto [a, b] : std::vector<std::pair<DType, DType>>{{DType::I8, DType::I8}, {DType::U8, DType::I8}, {DType::I32, DType::I32}}) {
    check_gemm(a, b, DType::I32, false, false, 20, 40, 9);
    check_gemm(a, b, DType::I32, true, true, 16, 8, 5);
  }
}

}  // namespace gemm_test
