// map computes every unary and binary operator elementwise with broadcasting (a [4, 1]
// column and a [1, 16] row against a [4, 16] tile), in every dtype. Single correctly
// rounded operations (+ - * / sqrt, max/min with maxNum NaN rules, abs, neg, select,
// comparisons, floor division and modulo of integers) match the reference bit for bit,
// NaN, infinities and signed zeros included; exp, exp2, log, tanh and rsqrt within a few
// f32 units (or one unit of a narrower output).
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace map_ops_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

/// A kernel that writes map results of `exprs` (over x [4, 16], r [4, 1], c [1, 16]) to
/// outputs Y0, Y1, ...
std::string map_kernel(DType t, const std::vector<std::string>& exprs) {
  std::string T = dtype_name(t);
  std::string text = "kernel maps(X: " + T + "[M, 16], R: " + T + "[M, 1], C: " + T + "[1, 16]";
  for (size_t i = 0; i < exprs.size(); ++i) text += ", Y" + std::to_string(i) + ": " + T + "[M, 16]";
  text += ") grid(ceildiv(M, 4)) threads(64) {\n";
  text += "  alloc x: fragment " + T + "[4, 16]\n  alloc r: fragment " + T + "[4, 1]\n";
  text += "  alloc c: shared " + T + "[1, 16]\n  alloc y: fragment " + T + "[4, 16]\n";
  text += "  copy X[bx * 4, 0], x\n  copy R[bx * 4, 0], r\n  copy C[0, 0], c\n";
  for (size_t i = 0; i < exprs.size(); ++i) {
    text += "  map y = " + exprs[i] + "\n";
    text += "  copy y, Y" + std::to_string(i) + "[bx * 4, 0]\n";
  }
  return text + "}\n";
}

/// Inputs with specials mixed in: NaN, +-inf, -0, values past the integer ranges.
examples::LaunchData inputs(const std::string& text, int64_t m, uint64_t seed) {
  ir::Kernel k = parse(text);
  examples::LaunchData d = make_data(k, {{"M", m}}, seed);
  const double specials[] = {NAN, INFINITY, -INFINITY, -0.0, 0.0, 1e30, -3.0, 0.5, 1.0, -1.0,
                             88.5, -87.0, 1e-40, 3e-39, 100.0, -110.0, 20.0, -9.5, 0.625, 1e-3};
  Rng rng(seed);
  for (size_t p = 0; p < 3; ++p) {
    examples::HostTensor& t = d.tensors[p];
    std::vector<double> v = t.values();
    for (int64_t i = 0; i < t.numel(); i += 3) v[size_t(i)] = specials[rng.next() % 20];
    fill_tensor(t, [&](int64_t i) { return v[size_t(i)]; });
  }
  return d;
}

const std::vector<std::string> kExactFloat = {
    "x + r", "x - c", "x * r", "x / c", "max(x, r)", "min(c, x)", "abs(x)", "-x", "sqrt(x)",
    "select(x > r, x, c)", "select(x != x, r, x)", "cast<f32>(x == r) + cast<f32>(x <= c)"};
// (Arguments are inputs, not computed: an f32 argument computed from x would carry its own
// rounding, which exp magnifies.)
const std::vector<std::string> kApproxFloat = {"exp(x)", "exp2(x)", "log(x)", "tanh(x)", "rsqrt(x)", "exp(-x)",
                                               "log(abs(x))", "tanh(-x)"};
const std::vector<std::string> kExactInt = {"x + r", "x - c", "x * r", "x / (abs(r) + 1)", "x % (abs(c) + 2)",
                                            "(-x) / 3", "(-x) % 3", "ceildiv(x, 4)", "max(x, r)", "min(x, c)",
                                            "abs(x)", "-x", "select(x > r, x, c)", "x * 100000"};

}  // namespace

TEST_CASE("exact elementwise float operators, every float dtype") {
  for (DType t : {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2}) {
    CAPTURE(std::string(dtype_name(t)));
    std::string text = map_kernel(t, kExactFloat);
    for (int64_t m : {1, 4, 7, 13}) check_against_reference(text, inputs(text, m, uint64_t(m)), Tolerance{});
  }
}

TEST_CASE("transcendental operators within a few units") {
  for (DType t : {DType::F64, DType::F32, DType::F16, DType::BF16}) {
    CAPTURE(std::string(dtype_name(t)));
    std::string text = map_kernel(t, kApproxFloat);
    // f32 results: a few f32 units; narrower outputs: one of their units (the f32 result
    // may sit on the other side of a rounding boundary).
    double rel = t == DType::F64 ? 1e-15 : (t == DType::F32 ? 4e-7 : ulps(t, 1.01));
    for (int64_t m : {4, 9}) check_against_reference(text, inputs(text, m, uint64_t(m) + 10), Tolerance{1e-37, rel});
  }
}

TEST_CASE("integer operators: floor division and modulo, saturation on store") {
  for (DType t : {DType::I8, DType::U8, DType::I32}) {
    CAPTURE(std::string(dtype_name(t)));
    std::string text = map_kernel(t, kExactInt);
    for (int64_t m : {1, 6, 11}) check_against_reference(text, {{"M", m}}, uint64_t(m), Tolerance{});
  }
}

TEST_CASE("bool maps: logic, comparisons, not") {
  std::string text = R"(
kernel logic(X: f32[M, 16], B: bool[M, 16], Y: bool[M, 16], Z: f32[M, 16]) grid(ceildiv(M, 4)) threads(64) {
  alloc x: fragment f32[4, 16]
  alloc b: fragment bool[4, 16]
  alloc y: fragment bool[4, 16]
  alloc z: fragment f32[4, 16]
  copy X[bx * 4, 0], x
  copy B[bx * 4, 0], b
  map y = (x > 0.25 && b) || !(x < -0.5)
  copy y, Y[bx * 4, 0]
  map z = select(b, x, -x) + cast<f32>(y)
  copy z, Z[bx * 4, 0]
}
)";
  for (int64_t m : {1, 5, 8}) check_against_reference(text, {{"M", m}}, uint64_t(m), Tolerance{});
}

TEST_CASE("mixed dtypes: f64 arithmetic with narrow operands, integer and float operands") {
  std::string text = R"(
kernel mixed(X: f16[M, 8], D: f64[M, 8], I: i32[M, 8], Y: f64[M, 8], Z: bf16[M, 8], W: e4m3[M, 8]) grid(M) threads(8) {
  alloc x: fragment f16[1, 8]
  alloc d: fragment f64[1, 8]
  alloc i: fragment i32[1, 8]
  alloc y: fragment f64[1, 8]
  alloc z: fragment bf16[1, 8]
  alloc w: fragment e4m3[1, 8]
  copy X[bx, 0], x
  copy D[bx, 0], d
  copy I[bx, 0], i
  map y = x * d + i
  copy y, Y[bx, 0]
  map z = d * 3.0 + 0.1
  copy z, Z[bx, 0]
  map w = i * 0.5
  copy w, W[bx, 0]
}
)";
  for (int64_t m : {1, 3, 10}) check_against_reference(text, {{"M", m}}, uint64_t(m), Tolerance{});
}

}  // namespace map_ops_test
