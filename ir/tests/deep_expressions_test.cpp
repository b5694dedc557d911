// Expression trees are bounded in height (kMaxExprHeight) where they enter: the parser counts
// left-deep chains, which grow without recursion (x + x + ... + x, 7,000 terms crashed the
// verifier's recursion), and the verifier checks trees from the C++ builder before it walks
// them. Under the bound, every walker (verifier, printer, interpreter, lowering) handles a
// tree of the largest accepted height.
#include <doctest/doctest.h>

#include <cstdio>
#include <unistd.h>

#include "core/Files.h"
#include "ir/Builder.h"
#include "ir/IntFold.h"
#include "ir/lower/tests/LowerTestUtil.h"

namespace deep_expressions_test {

using namespace tegula;
using namespace tegula::ir;

/// A kernel whose one store adds `terms` copies of the scalar x, left to right.
static std::string chain_kernel(int terms) {
  std::string text = "kernel chain(A: f32[4], x: f32) grid(1) threads(4) {\n  parallel i in 4 {\n    store A[i] = x";
  for (int t = 1; t < terms; ++t) text += " + x";
  return text + "\n  }\n}\n";
}

TEST_CASE("a 7,000-term chain read from a 28 KB file is an error at the operator past the bound") {
  std::string text = chain_kernel(7000);
  CHECK(text.size() > 28000);
  std::string path = "/tmp/tegula_deep_chain_" + std::to_string(::getpid()) + ".tile";
  REQUIRE(write_file_atomic(path, text).is_ok());
  auto read = read_file(path);
  ::unlink(path.c_str());
  REQUIRE(read.is_ok());
  auto k = parse_and_verify(*read, path);
  REQUIRE_FALSE(k.is_ok());
  INFO(k.status().str());
  CHECK(k.status().message().find("nested too deeply") != std::string::npos);
  CHECK(k.status().loc().line == 3);
  // The operator that makes the tree one too high: the kMaxExprHeight-th '+' (column of
  // "x" is 18, each further term is 4 characters).
  CHECK(k.status().loc().column == 18 + 4 * kMaxExprHeight - 2);
  CHECK(k.status().loc().file == path);
}

TEST_CASE("the longest accepted chain verifies, prints, round-trips, interprets and lowers") {
  // kMaxExprHeight operators make a tree of height kMaxExprHeight + 1, one too many.
  CHECK_FALSE(parse_and_verify(chain_kernel(kMaxExprHeight + 1)).is_ok());
  const int terms = kMaxExprHeight;
  auto k = parse_and_verify(chain_kernel(terms), "chain.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  std::string printed = print_kernel(*k);
  auto again = parse_and_verify(printed, "printed.tile");
  REQUIRE_MESSAGE(again.is_ok(), again.status().str());
  CHECK(print_kernel(*again) == printed);

  float a[4] = {0, 0, 0, 0};
  REQUIRE(interpret(*k, {Arg::tensor(a, sizeof a), Arg::number(0.5)}).is_ok());
  for (float v : a) CHECK(v == doctest::Approx(0.5 * terms));

  for (const std::string& tname : builtin_target_names()) {
    INFO(tname);
    TargetDescription t = testing::target(tname);
    auto lowered = lower(*k, t);
    REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
    float b[4] = {0, 0, 0, 0};
    InterpretOptions o;
    o.target = &t;
    REQUIRE(interpret(lowered->kernel, {Arg::tensor(b, sizeof b), Arg::number(0.25)}, o).is_ok());
    for (float v : b) CHECK(v == doctest::Approx(0.25 * terms));
    CHECK_FALSE(print_kernel(lowered->kernel).empty());
  }
}

TEST_CASE("a builder-made tree past the bound is refused by the verifier before it recurses") {
  for (bool left : {true, false}) {
    KernelBuilder b("deep");
    BufferRef a = b.tensor("A", DType::F32, {int_imm(4)});
    Expr x = b.scalar("x", DType::F32);
    Expr chain = x;
    // 10,000 levels: deeper than the 7,000 that overflowed the verifier's stack.
    for (int i = 0; i < 10000; ++i) chain = left ? binary(BinaryOp::Add, chain, x) : binary(BinaryOp::Add, x, chain);
    b.grid({int_imm(1)});
    b.threads(4);
    b.parallel({"i"}, {4}, [&](std::vector<Expr> i) { b.store(a.at({i[0]}), chain); });
    auto k = b.build();
    REQUIRE_FALSE(k.is_ok());
    CHECK(k.status().message().find("nested too deeply") != std::string::npos);
  }
}

}  // namespace deep_expressions_test
