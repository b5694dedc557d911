// Tunables (ir/Tunables.h): a kernel parsed with a binding is exactly the kernel written with
// those values in place of the names; the space lists the candidates in declaration order
// with the last tunable fastest; where conditions filter them; bindings read back from text
// in any order.
#include <doctest/doctest.h>

#include <string>

#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Tunables.h"

namespace tunables_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

const char* kTunable =
    "kernel scale(X: f32[N], Y: f32[N]) tune(B in [64, 128, 256], T in 1 .. 3) where(B % (T * 64) == 0)\n"
    "    grid(ceildiv(N, B)) threads(T * 64) {\n"
    "  alloc Xs: shared f32[B]\n"
    "  copy X[bx * B], Xs\n"
    "  map Xs = Xs * 2.0\n"
    "  copy Xs, Y[bx * B]\n"
    "}\n";

const char* kFixed =
    "kernel scale(X: f32[N], Y: f32[N]) grid(ceildiv(N, 128)) threads(2 * 64) {\n"
    "  alloc Xs: shared f32[128]\n"
    "  copy X[bx * 128], Xs\n"
    "  map Xs = Xs * 2.0\n"
    "  copy Xs, Y[bx * 128]\n"
    "}\n";

}  // namespace

TEST_CASE("an instance is the kernel written with the values in place of the names") {
  Binding b{{"B", 128}, {"T", 2}};
  Result<Kernel> instance = parse_and_verify(kTunable, "t.tile", &b);
  REQUIRE_MESSAGE(instance.is_ok(), instance.status().str());
  Result<Kernel> fixed = parse_and_verify(kFixed, "f.tile");
  REQUIRE(fixed.is_ok());
  CHECK(print_kernel(*instance) == print_kernel(*fixed));
  CHECK(instance->threads == 128);
  // Errors in an instance point into the file as written.
  Binding small{{"B", 64}, {"T", 1}};
  CHECK(parse_and_verify(kTunable, "t.tile", &small).is_ok());
}

TEST_CASE("the space enumerates in declaration order, filtered by the where conditions") {
  Result<TuneSpace> space = parse_tune_space(kTunable, "t.tile");
  REQUIRE(space.is_ok());
  REQUIRE(space->tunables.size() == 2);
  CHECK(space->tunables[0].values == std::vector<int64_t>{64, 128, 256});
  CHECK(space->tunables[1].values == std::vector<int64_t>{1, 2});  // 1 .. 3 excludes 3
  CHECK(space->size() == 6);
  std::vector<RejectedBinding> rejected;
  Result<std::vector<Binding>> all = enumerate_bindings(*space, &rejected);
  REQUIRE(all.is_ok());
  std::vector<std::string> texts;
  for (const Binding& b : *all) texts.push_back(binding_text(b));
  CHECK(texts == std::vector<std::string>{"B=64 T=1", "B=128 T=1", "B=128 T=2", "B=256 T=1", "B=256 T=2"});
  REQUIRE(rejected.size() == 1);
  CHECK(binding_text(rejected[0].binding) == "B=64 T=2");
  CHECK(rejected[0].reason.find("breaks where(") != std::string::npos);
  CHECK(rejected[0].reason.find("t.tile:1:") != std::string::npos);
}

TEST_CASE("a kernel without tune has an empty space, and parses as before") {
  Result<TuneSpace> space = parse_tune_space(kFixed, "f.tile");
  REQUIRE(space.is_ok());
  CHECK(space->empty());
  CHECK(space->size() == 1);
  Result<std::vector<Binding>> none = enumerate_bindings(*space);
  REQUIRE(none.is_ok());
  CHECK(none->empty());
}

TEST_CASE("bindings read back from text in any order and separator") {
  Result<TuneSpace> space = parse_tune_space(kTunable, "t.tile");
  REQUIRE(space.is_ok());
  for (const char* text : {"B=256,T=2", "T=2 B=256", " T=2, B=256 "}) {
    Result<Binding> b = parse_binding(text, *space);
    REQUIRE_MESSAGE(b.is_ok(), text);
    CHECK(binding_text(*b) == "B=256 T=2");
  }
  std::string why;
  CHECK(satisfies(*space, {{"B", 256}, {"T", 2}}, &why));
  CHECK_FALSE(satisfies(*space, {{"B", 64}, {"T", 2}}, &why));
  CHECK(why.find("B % (T * 64) == 0") != std::string::npos);
}

}  // namespace tunables_test
