// The bit operators (ir/OpList.h): 32-bit words, `>>` arithmetic and `>>>` logical, shift
// counts modulo 32, operands taken modulo 2^32; their precedence and printing; constant
// folding agreeing with the interpreter; and bitcast between same-size dtypes (NaN
// canonical, inf and subnormal patterns kept, integers truncated).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/tests/RunUtil.h"

namespace bit_ops_test {

using namespace tegula;
using namespace tegula::ir;
using testing::Value;

namespace {

constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
constexpr int64_t kMax = std::numeric_limits<int32_t>::max();

/// Z[i] = expr over X[i] and Y[i] (i32 tensors of n elements) on the interpreter.
std::vector<double> run_i32(const std::string& expr, const std::vector<double>& x, const std::vector<double>& y,
                            const std::string& out = "i32", const std::string& in = "i32") {
  size_t n = x.size();
  std::string N = std::to_string(n);
  std::vector<Value> args = {Value::tensor(x), Value::tensor(y), Value::tensor(std::vector<double>(n, 0))};
  std::string text = "kernel k(X: " + in + "[" + N + "], Y: " + in + "[" + N + "], Z: " + out + "[" + N +
                     "]) grid(1) threads(32) {\n  parallel i in " + N + " {\n    store Z[i] = " + expr + "\n  }\n}\n";
  Status st = testing::run_kernel(text, args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  return args[2].values;
}

/// The parsed value of `store Z[i] = expr` (X, Y i32; F f32).
Expr parsed(const std::string& expr) {
  std::string text = "kernel k(X: i32[4], Y: i32[4], F: f32[4], Z: i32[4]) grid(1) threads(4) {\n  parallel i in 4 {\n"
                     "    store Z[i] = " + expr + "\n  }\n}\n";
  auto k = parse_and_verify(text, "bits.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return k->body.stmts[0].body().stmts[0].value();
}

uint32_t f32_bits(double v) {
  float f = float(v);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

}  // namespace

TEST_CASE("shifts: counts 0, 1, 31, 32, 33 and negative ones, on positive, negative and INT32_MIN words") {
  // Counts are taken modulo 32: 32 is 0, 33 is 1, -1 is 31.
  std::vector<double> x = {1, 1, 1, 1, -1, -1, -1, double(kMin), double(kMin), 5, 12345, -12345, double(kMax), 1, 1};
  std::vector<double> c = {0, 31, 32, 33, 1, 31, 0, 31, 1, -1, 4, 4, 1, -31, 65};
  std::vector<double> shl = run_i32("X[i] << Y[i]", x, c);
  std::vector<double> shr = run_i32("X[i] >> Y[i]", x, c);
  std::vector<double> lsr = run_i32("X[i] >>> Y[i]", x, c);
  const double want_shl[] = {1, double(kMin), 1, 2, -2, double(kMin), -1, 0, 0, double(kMin), 197520, -197520, -2, 2, 2};
  const double want_shr[] = {1, 0, 1, 0, -1, -1, -1, -1, -1073741824, 0, 771, -772, 1073741823, 0, 0};
  const double want_lsr[] = {1, 0, 1, 0, 2147483647, 1, -1, 1, 1073741824, 0, 771, 268434684, 1073741823, 0, 0};
  for (size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    CHECK(shl[i] == want_shl[i]);
    CHECK(shr[i] == want_shr[i]);
    CHECK(lsr[i] == want_lsr[i]);
  }
}

TEST_CASE("shifts agree with independent formulas over many words and counts") {
  std::vector<double> x, c;
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 256; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x.push_back(double(int32_t(uint32_t(s >> 32))));
    c.push_back(double(int32_t(s & 0xff) - 128));  // counts in [-128, 127]
  }
  std::vector<double> shl = run_i32("X[i] << Y[i]", x, c), shr = run_i32("X[i] >> Y[i]", x, c), lsr = run_i32("X[i] >>> Y[i]", x, c);
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t v = int64_t(x[i]);
    int n = int(int64_t(c[i]) & 31);
    CAPTURE(v);
    CAPTURE(n);
    CHECK(shr[i] == std::floor(x[i] / std::ldexp(1.0, n)));  // arithmetic: floor division
    CHECK(lsr[i] == double(int32_t(uint32_t(v) >> n)));
    int64_t wrapped = (v * (int64_t(1) << n)) % (int64_t(1) << 32);  // |v * 2^n| < 2^62
    if (wrapped < 0) wrapped += int64_t(1) << 32;
    CHECK(shl[i] == double(wrapped >= (int64_t(1) << 31) ? wrapped - (int64_t(1) << 32) : wrapped));
  }
}

TEST_CASE("& | ^ ~ on words, and operands taken modulo 2^32") {
  std::vector<double> x = {12, -1, double(kMin), 0, 40000, 70000};
  std::vector<double> y = {10, 255, -1, 0, 3, 7};
  std::vector<double> a = run_i32("X[i] & Y[i]", x, y), o = run_i32("X[i] | Y[i]", x, y), e = run_i32("X[i] ^ Y[i]", x, y);
  std::vector<double> n = run_i32("~X[i]", x, y);
  const double want_a[] = {8, 255, double(kMin), 0, 0, 0};
  const double want_o[] = {14, -1, -1, 0, 40003, 70007};
  const double want_e[] = {6, -256, double(kMax), 0, 40003, 70007};
  const double want_n[] = {-13, 0, double(kMax), -1, -40001, -70001};
  for (size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    CHECK(a[i] == want_a[i]);
    CHECK(o[i] == want_o[i]);
    CHECK(e[i] == want_e[i]);
    CHECK(n[i] == want_n[i]);
  }
  // 40000 * 65536 = 2621440000 is past INT32_MAX: as a word it is -1673527296, and >> 16
  // gives 40000 - 65536. 70000 * 65536 + 5 wraps past 2^32; its low 16 bits are 5.
  std::vector<double> w = run_i32("(X[i] * 65536) >> 16", {40000, 70000}, {0, 0});
  CHECK(w[0] == 40000 - 65536);
  CHECK(w[1] == 70000 - 65536);
  std::vector<double> lo = run_i32("(X[i] * 65536 + 5) & 0xffff", {40000, 70000}, {0, 0});
  CHECK(lo[0] == 5);
  CHECK(lo[1] == 5);
  // u8 and i8 elements are words too: -1 as i8 is all ones.
  std::vector<double> b = run_i32("X[i] & 0x0f", {-1, 100, -128}, {0, 0, 0}, "i32", "i8");
  CHECK(b[0] == 15);
  CHECK(b[1] == 4);
  CHECK(b[2] == 0);
}

TEST_CASE("nibble unpacking of an i32 word: unsigned and signed int4") {
  // 0x89abcdef: nibbles from the low end f e d c b a 9 8.
  double w = double(int32_t(0x89abcdefu));
  std::vector<double> words(8, w), j = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<double> u = run_i32("(X[i] >>> 4 * Y[i]) & 15", words, j);
  std::vector<double> sg = run_i32("(X[i] << 28 - 4 * Y[i]) >> 28", words, j);
  const double want_u[] = {15, 14, 13, 12, 11, 10, 9, 8};
  for (size_t i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(u[i] == want_u[i]);
    CHECK(sg[i] == want_u[i] - 16);  // every nibble here has its top bit set
  }
}

TEST_CASE("precedence: C's order among bit operators, all above comparisons, prefix operators tightest") {
  CHECK(print_expr(parsed("select(X[i] & 1 == 0, 1, 0)")) == "select(X[i] & 1 == 0, 1, 0)");
  Expr cmp = parsed("select(X[i] & 1 == 0, 1, 0)")->args[0];
  REQUIRE(cmp->kind == ExprKind::Binary);
  CHECK(cmp->binary == BinaryOp::Eq);
  CHECK(cmp->args[0]->binary == BinaryOp::BitAnd);
  Expr e = parsed("X[i] | Y[i] ^ X[i] & Y[i]");
  CHECK(e->binary == BinaryOp::BitOr);
  CHECK(e->args[1]->binary == BinaryOp::BitXor);
  CHECK(e->args[1]->args[1]->binary == BinaryOp::BitAnd);
  Expr s = parsed("X[i] << 28 - 4 * Y[i]");
  CHECK(s->binary == BinaryOp::Shl);
  CHECK(s->args[1]->binary == BinaryOp::Sub);
  Expr n = parsed("~X[i] & -Y[i] >> 1");
  CHECK(n->binary == BinaryOp::BitAnd);
  CHECK(n->args[0]->unary == UnaryOp::BitNot);
  CHECK(n->args[1]->binary == BinaryOp::Shr);
  CHECK(n->args[1]->args[0]->unary == UnaryOp::Neg);
  // Left-associative shifts; the printer keeps the grouping it needs.
  Expr l = parsed("X[i] >> 2 >>> 1");
  CHECK(l->binary == BinaryOp::ShrLogical);
  CHECK(print_expr(parsed("X[i] >> (2 >>> 1)")) == "X[i] >> (2 >>> 1)");
  CHECK(print_expr(parsed("(X[i] | Y[i]) & 3")) == "(X[i] | Y[i]) & 3");
  CHECK(print_expr(parsed("~(X[i] + 1)")) == "~(X[i] + 1)");
  CHECK(print_expr(parsed("0x7fffffff & ~0xF")) == "2147483647 & ~(15)");
}

TEST_CASE("constant folding of bit operators is the interpreter's rule") {
  CHECK(const_int(parsed("1 << 31")) == kMin);
  CHECK(const_int(parsed("1 << 32")) == 1);
  CHECK(const_int(parsed("-1 >>> 28")) == 15);
  CHECK(const_int(parsed("-1 >> 28")) == -1);
  CHECK(const_int(parsed("(1099511627776 + 2) | 1")) == 3);  // 2^40 is 0 as a word
  CHECK(const_int(parsed("1 << 40")) == 256);  // the count is 40 modulo 32
  CHECK(const_int(parsed("~0")) == -1);
  CHECK(const_int(parsed("6 ^ 3")) == 5);
  // A grid computed with bit operators, folded at verify time.
  auto k = parse_and_verify("kernel k(A: f32[N]) grid((N + 63) >> 6, 1 << 2) threads(32) {\n}\n", "grid.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(const_int(k->grid[1]) == 4);
  std::vector<double> folded = run_i32("(1 << 33) + (-8 >> 1) + (-8 >>> 29)", {0}, {0});
  CHECK(folded[0] == 2 - 4 + 7);
}

TEST_CASE("bitcast between f32 and i32: NaN canonical with its sign, inf, -0 and subnormal patterns kept") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double sub = std::ldexp(1.0, -149);
  std::vector<double> f = {1.0, -0.0, inf, -inf, nan, -nan, sub, -3 * sub, std::ldexp(1.0, -126), 3.4028234663852886e38};
  std::vector<double> bits = run_i32("bitcast<i32>(X[i])", f, f, "i32", "f32");
  for (size_t i = 0; i < f.size(); ++i) {
    CAPTURE(i);
    uint32_t want = f32_bits(f[i]);
    if (std::isnan(f[i])) want = (std::signbit(f[i]) ? 0x80000000u : 0u) | 0x7fc00000u;
    CHECK(bits[i] == double(int32_t(want)));
  }
  // Back: the patterns of 1.0, -0, +inf, a NaN with a payload, the smallest subnormals.
  std::vector<double> words = {double(0x3f800000), double(kMin), double(0x7f800000), double(0x7f800001), 1, -2147483647};
  std::vector<double> back = run_i32("bitcast<f32>(X[i])", words, words, "f32");
  CHECK(back[0] == 1.0);
  CHECK((back[1] == 0 && std::signbit(back[1])));
  CHECK(back[2] == inf);
  CHECK(std::isnan(back[3]));
  CHECK(back[4] == sub);
  CHECK(back[5] == -sub);
  // A round trip keeps every non-NaN pattern.
  std::vector<double> rt = run_i32("bitcast<i32>(bitcast<f32>(X[i]))", words, words);
  CHECK(rt[0] == words[0]);
  CHECK(rt[1] == words[1]);
  CHECK(rt[3] == double(0x7fc00000));  // the NaN comes back canonical
  CHECK(rt[5] == words[5]);
}

TEST_CASE("bitcast of bytes and halves: u8 and i8, fp8, f16 and bf16; integers truncated first") {
  std::vector<double> u = run_i32("bitcast<i8>(X[i])", {255, 128, 127, 0}, {0, 0, 0, 0}, "i32", "u8");
  CHECK(u == std::vector<double>{-1, -128, 127, 0});
  std::vector<double> e = run_i32("bitcast<e4m3>(X[i])", {0x38, 0x7f, 0xff, 0x01, 0x7e}, {0, 0, 0, 0, 0}, "f32", "u8");
  CHECK(e[0] == 1.0);
  CHECK(std::isnan(e[1]));
  CHECK(std::isnan(e[2]));
  CHECK(e[3] == std::ldexp(1.0, -9));
  CHECK(e[4] == 448);
  std::vector<double> e5 = run_i32("bitcast<u8>(X[i])", {1.0, -57344, std::numeric_limits<double>::quiet_NaN()}, {0, 0, 0}, "i32", "e5m2");
  CHECK(e5 == std::vector<double>{0x3c, 0xfb, 0x7e});
  // An i32 word cast to u8 first (a store's saturation), then reinterpreted.
  std::vector<double> c = run_i32("bitcast<i8>(cast<u8>(X[i]))", {200, 300}, {0, 0});
  CHECK(c == std::vector<double>{-56, -1});
  // f16 1.0 is 0x3c00, which as bf16 is 2^-7 * 1.0... = 0.0078125.
  std::vector<double> h = run_i32("bitcast<bf16>(X[i])", {1.0, -2.0}, {0, 0}, "f32", "f16");
  CHECK(h[0] == 0.0078125);
  CHECK(h[1] == -2.0);  // 0xc000 is -2 in both
}

}  // namespace bit_ops_test
