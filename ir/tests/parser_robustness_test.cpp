// No input, however malformed, crashes or hangs the parser or verifier: mutated examples,
// truncations, deep nesting and arbitrary bytes all end in a kernel or an error with a
// location.
#include <doctest/doctest.h>

#include <cstdint>

#include "core/Random.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/tests/TestUtil.h"

namespace parser_robustness_test {

using namespace tegula;
using namespace tegula::ir;

static void must_not_crash(const std::string& text) {
  auto k = parse_and_verify(text, "fuzz.tile");
  if (k.is_ok()) {
    // Whatever verifies must print and re-parse to the same text.
    std::string p = print_kernel(*k);
    auto k2 = parse_and_verify(p, "printed");
    REQUIRE_MESSAGE(k2.is_ok(), std::string(k2.status().str() + "\n" + p));
    CHECK(print_kernel(*k2) == p);
    return;
  }
  CHECK(k.status().loc().line >= 1);
  CHECK(!k.status().message().empty());
}

TEST_CASE("every truncation of every example") {
  for (const std::string& path : testing::example_files()) {
    std::string text = testing::read_example(path);
    for (size_t n = 0; n < text.size(); n += 3) must_not_crash(text.substr(0, n));
  }
}

TEST_CASE("random byte mutations of the examples") {
  Rng rng(42);
  const char alphabet[] = "(){}[],:=.+-*/%<>!&|_ \n\t0123456789abcxyzMNK\"#\x01\xff";
  for (const std::string& path : testing::example_files()) {
    std::string text = testing::read_example(path);
    for (int trial = 0; trial < 300; ++trial) {
      std::string t = text;
      int edits = 1 + int(rng.integer(0, 3));
      for (int e = 0; e < edits && !t.empty(); ++e) {
        size_t pos = size_t(rng.integer(0, int64_t(t.size()) - 1));
        char c = alphabet[rng.integer(0, sizeof(alphabet) - 2)];
        switch (rng.integer(0, 2)) {
          case 0: t[pos] = c; break;
          case 1: t.insert(t.begin() + long(pos), c); break;
          default: t.erase(pos, size_t(rng.integer(1, 8))); break;
        }
      }
      must_not_crash(t);
    }
  }
}

TEST_CASE("deep nesting is refused, not a stack overflow") {
  std::string deep_expr = "kernel k(A: f32[4]) grid(1) threads(1) {\n  parallel i in 4 {\n    store A[i] = " +
                          std::string(100000, '(') + "1.0" + std::string(100000, ')') + "\n  }\n}\n";
  auto k = parse_and_verify(deep_expr);
  REQUIRE_FALSE(k.is_ok());
  CHECK(k.status().message().find("nesting is too deep") != std::string::npos);

  std::string deep_blocks = "kernel k(A: f32[4]) grid(1) threads(1) {\n";
  for (int i = 0; i < 5000; ++i) deep_blocks += "for i" + std::to_string(i) + " in 0 .. 1 {\n";
  auto k2 = parse_and_verify(deep_blocks);
  REQUIRE_FALSE(k2.is_ok());
  CHECK(k2.status().message().find("nesting is too deep") != std::string::npos);

  std::string unary_chain = "kernel k(A: f32[4]) grid(1) threads(1) {\n  parallel i in 4 {\n    store A[i] = " +
                            std::string(100000, '-') + "A[i]\n  }\n}\n";
  CHECK_FALSE(parse_and_verify(unary_chain).is_ok());
}

TEST_CASE("arbitrary bytes") {
  Rng rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string t(size_t(rng.integer(0, 200)), '\0');
    for (char& c : t) c = char(rng.integer(0, 255));
    if (trial % 2) t = "kernel k(A: f32[4]) grid(1) threads(1) {\n" + t;
    must_not_crash(t);
  }
}

}  // namespace parser_robustness_test
