// Integer arithmetic on constants and on launch values is exact or an error: INT64_MIN / -1
// (which traps on x86), INT64_MIN % -1, ceildiv(INT64_MIN, -1) and products past 2^63 are
// located errors from the verifier, and from launch_grid when the operands are only known at
// launch, never a SIGFPE or a wrapped value.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "ir/IntFold.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"

namespace integer_folding_test {

using namespace tegula;
using namespace tegula::ir;

static const char* kMin = "(-9223372036854775807 - 1)";

static std::string copy_at(const std::string& index) {
  return "kernel k(X: f32[64]) grid(1) threads(4) {\n"
         "  alloc F: fragment f32[4]\n"
         "  copy X[" + index + "], F\n"
         "}\n";
}

static void refused_as_overflow(const std::string& index) {
  auto k = parse_and_verify(copy_at(index), "fold.tile");
  REQUIRE_FALSE(k.is_ok());
  INFO(k.status().str());
  CHECK(k.status().message().find("does not fit in 64 bits") != std::string::npos);
  CHECK(k.status().loc().line == 3);
  CHECK(k.status().loc().column > 8);
}

TEST_CASE("the folds that trap or wrap are verifier errors at the expression") {
  refused_as_overflow(std::string(kMin) + " / -1");
  refused_as_overflow(std::string(kMin) + " % -1");
  refused_as_overflow("ceildiv(" + std::string(kMin) + ", -1)");
  refused_as_overflow("9223372036854775807 * 2");
  refused_as_overflow("9223372036854775807 + 1");
  refused_as_overflow(std::string(kMin) + " - 1");
  refused_as_overflow("-" + std::string(kMin));
}

TEST_CASE("folds near the limits that fit are exact") {
  CHECK(fold_int_binary(BinaryOp::Div, INT64_MIN, 1) == INT64_MIN);
  CHECK(fold_int_binary(BinaryOp::Div, INT64_MIN, 2) == INT64_MIN / 2);
  CHECK(fold_int_binary(BinaryOp::Mod, INT64_MIN, 3) == 1);  // floor modulo: -9223372036854775808 = 3q + 1
  CHECK(fold_int_binary(BinaryOp::Mul, INT64_MAX, 1) == INT64_MAX);
  CHECK(fold_int_binary(BinaryOp::CeilDiv, INT64_MAX, 2) == int64_t(1) << 62);
  CHECK(fold_int_binary(BinaryOp::Sub, -1, INT64_MAX) == INT64_MIN);
  CHECK_FALSE(fold_int_binary(BinaryOp::Div, 5, 0).has_value());
  CHECK_FALSE(fold_int_neg(INT64_MIN).has_value());
}

TEST_CASE("floor semantics of / % and ceildiv on every sign combination") {
  for (int64_t a : {-7, -6, -1, 0, 1, 6, 7}) {
    for (int64_t b : {-3, -2, -1, 1, 2, 3}) {
      INFO(a << " op " << b);
      int64_t q = *fold_int_binary(BinaryOp::Div, a, b);
      int64_t r = *fold_int_binary(BinaryOp::Mod, a, b);
      int64_t c = *fold_int_binary(BinaryOp::CeilDiv, a, b);
      CHECK(double(q) <= double(a) / double(b));
      CHECK(double(q) + 1 > double(a) / double(b));
      CHECK(q * b + r == a);
      CHECK(double(c) >= double(a) / double(b));
      CHECK(double(c) - 1 < double(a) / double(b));
    }
  }
}

TEST_CASE("the verifier still folds correct constants and names division by zero") {
  auto ok = parse_and_verify(copy_at(std::string(kMin) + " / " + std::string(kMin)), "fold.tile");
  CHECK_MESSAGE(ok.is_ok(), ok.status().str());  // 1: inside X
  auto zero = parse_and_verify(copy_at("4 / 0"), "fold.tile");
  REQUIRE_FALSE(zero.is_ok());
  CHECK(zero.status().message().find("division by zero") != std::string::npos);
}

static Result<std::vector<int64_t>> grid_of(const std::string& grid, int64_t n) {
  auto k = parse_and_verify("kernel k(A: f32[N]) grid(" + grid + ") threads(1) {\n}\n", "grid.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  float a = 0;
  return launch_grid(*k, {Arg::tensor(&a, sizeof a), Arg::integer(n)});
}

TEST_CASE("a grid that overflows only at launch is an error, not a dead host") {
  // N = 1: (1 - INT64_MAX - 2) is INT64_MIN, so the division is the trapping one.
  auto div = grid_of("(N - 9223372036854775807 - 2) / -1", 1);
  REQUIRE_FALSE(div.is_ok());
  CHECK(div.status().message().find("does not fit in 64 bits") != std::string::npos);
  CHECK(div.status().loc().line == 1);

  CHECK_FALSE(grid_of("(N - 9223372036854775807 - 2) % -1", 1).is_ok());
  CHECK_FALSE(grid_of("ceildiv(N - 9223372036854775807 - 2, -1)", 1).is_ok());
  CHECK_FALSE(grid_of("N * N", int64_t(1) << 40).is_ok());
  CHECK_FALSE(grid_of("-(N - 9223372036854775807 - 2)", 1).is_ok());

  auto zero = grid_of("4 / (N - 1)", 1);
  REQUIRE_FALSE(zero.is_ok());
  CHECK(zero.status().message().find("divides by zero") != std::string::npos);

  auto fine = grid_of("ceildiv(N, 4)", 9);
  REQUIRE(fine.is_ok());
  CHECK(*fine == std::vector<int64_t>{3});
}

TEST_CASE("a grid whose block count overflows is refused at launch, not run as zero blocks") {
  auto k = parse_and_verify("kernel k(A: f32[N]) grid(4, N, N) threads(1) {\n}\n", "grid.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  float a = 0;
  auto huge = launch_grid(*k, {Arg::tensor(&a, sizeof a), Arg::integer(int64_t(1) << 31)});
  REQUIRE_FALSE(huge.is_ok());
  CHECK(huge.status().message() == "a grid of 4 x 2147483648 x 2147483648 blocks is more than the 281474976710656 one launch may run");
  // The bound itself is accepted, and an empty grid is empty (0 blocks), not an error.
  auto at_bound = launch_grid(*k, {Arg::tensor(&a, sizeof a), Arg::integer(int64_t(1) << 23)});
  CHECK(at_bound.is_ok());
  auto past = launch_grid(*k, {Arg::tensor(&a, sizeof a), Arg::integer((int64_t(1) << 23) + 1)});
  CHECK_FALSE(past.is_ok());
}

TEST_CASE("a grid with a zero dimension is empty however large the others") {
  auto k = parse_and_verify("kernel k(A: f32[N]) grid(N, N, N - N) threads(1) {\n}\n", "grid.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  float a = 0;
  auto empty = launch_grid(*k, {Arg::tensor(&a, sizeof a), Arg::integer(int64_t(1) << 31)});
  REQUIRE(empty.is_ok());
  CHECK(*empty == std::vector<int64_t>{int64_t(1) << 31, int64_t(1) << 31, 0});
}

}  // namespace integer_folding_test
