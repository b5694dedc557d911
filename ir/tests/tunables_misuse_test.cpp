// Misused tunables are refused with their location and cause: a kernel with tunables parsed
// without a binding, a binding that misses, repeats or invents a tunable or picks a value
// that is not a candidate, a binding that breaks a where condition, a tunable that shadows a
// parameter, a shape symbol or a block index, a duplicate, an empty or oversized range, a
// non-positive or repeated candidate, and a condition that names anything but tunables.
#include <doctest/doctest.h>

#include <string>

#include "ir/Parser.h"
#include "ir/Tunables.h"

namespace tunables_misuse_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

std::string with_tune(const std::string& clause) {
  return "kernel k(X: f32[N]) " + clause + " grid(1) threads(32) {\n  alloc S: shared f32[32]\n  copy X[0], S\n}\n";
}

void check_space_error(const std::string& clause, int column, const std::string& message) {
  Result<TuneSpace> s = parse_tune_space(with_tune(clause), "m.tile");
  REQUIRE_MESSAGE(!s.is_ok(), clause);
  CHECK_MESSAGE(s.status().message().find(message) != std::string::npos, s.status().str());
  CHECK_MESSAGE(s.status().loc().line == 1, s.status().str());
  CHECK_MESSAGE(s.status().loc().column == column, s.status().str());
}

}  // namespace

TEST_CASE("declarations that cannot be a tune space") {
  check_space_error("tune(N in [1, 2])", 26, "tunable N is also a shape symbol");
  check_space_error("tune(X in [1, 2])", 26, "tunable X is also a parameter");
  check_space_error("tune(bx in [1, 2])", 26, "would hide the block index");
  check_space_error("tune(A in [1], A in [2])", 36, "tunable A is declared twice");
  check_space_error("tune(A in 4 .. 4)", 26, "the range is empty");
  check_space_error("tune(A in 0 .. 100)", 26, "at most 64 values");
  check_space_error("tune(A in [0, 1])", 26, "candidates are positive integers");
  check_space_error("tune(A in [2, 2])", 26, "candidate 2 is listed twice");
  check_space_error("tune(A in [2]) where(A < N)", 46, "may name only tunables; 'N' is not one");
  check_space_error("tune(A in [2]) where(A < 2.5)", 46, "integer arithmetic, comparisons and logic");
}

TEST_CASE("a kernel with tunables needs a binding, and a binding must fit the space") {
  std::string text = with_tune("tune(A in [1, 2], B in [4, 8]) where(A * 4 <= B)");
  Result<Kernel> none = parse_kernel(text, "m.tile");
  REQUIRE(!none.is_ok());
  CHECK(none.status().message().find("has tunables (A, B)") != std::string::npos);
  CHECK(none.status().loc().column == 21);

  auto refused = [&](const Binding& b, const std::string& message) {
    Result<Kernel> k = parse_kernel(text, "m.tile", &b);
    REQUIRE_MESSAGE(!k.is_ok(), binding_text(b));
    CHECK_MESSAGE(k.status().message().find(message) != std::string::npos, k.status().str());
  };
  refused({{"A", 1}}, "tunable B has no value");
  refused({{"A", 3}, {"B", 4}}, "tunable A = 3 is not one of its candidates [1, 2]");
  refused({{"B", 4}, {"A", 1}}, "out of order or twice");
  refused({{"A", 1}, {"B", 4}, {"C", 1}}, "'C' is not a tunable of this kernel");
  refused({{"A", 2}, {"B", 4}}, "break this where condition");
  Binding fine{{"A", 1}, {"B", 4}};
  CHECK(parse_kernel(text, "m.tile", &fine).is_ok());

  // Values for a kernel that declares no tunables.
  Binding stray{{"A", 1}};
  Result<Kernel> fixed = parse_kernel(with_tune(""), "m.tile", &stray);
  REQUIRE(!fixed.is_ok());
  CHECK(fixed.status().message().find("has no tunables") != std::string::npos);
}

TEST_CASE("binding texts that do not parse") {
  Result<TuneSpace> space = parse_tune_space(with_tune("tune(A in [1, 2])"), "m.tile");
  REQUIRE(space.is_ok());
  for (auto [text, message] : {std::pair<const char*, const char*>{"A", "expected NAME=INTEGER"},
                               {"A=", "expected NAME=INTEGER"},
                               {"A=-1", "is not a positive integer"},
                               {"A=1x", "is not a positive integer"},
                               {"Z=1", "'Z' is not a tunable"},
                               {"", "tunable A has no value"}}) {
    Result<Binding> b = parse_binding(text, *space);
    REQUIRE_MESSAGE(!b.is_ok(), text);
    CHECK_MESSAGE(b.status().message().find(message) != std::string::npos, b.status().message());
  }
}

}  // namespace tunables_misuse_test
