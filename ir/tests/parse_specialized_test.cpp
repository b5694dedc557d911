// A kernel parsed for exact shapes reads every use of a shape symbol (signature, grid, body)
// as its value, so nothing symbolic is left; a tunable kernel takes its binding as well; a
// value for a name that is not a shape symbol, a symbol left without one and a negative value
// are located errors.
#include <doctest/doctest.h>

#include "ir/Parser.h"
#include "ir/Printer.h"

namespace parse_specialized_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

const char* kRows =
    "kernel rows(X: f32[M, N], Y: f32[M, N]) grid(ceildiv(M, 4)) threads(64) {\n"
    "  alloc x: fragment f32[4, 64]\n"
    "  for j in 0 .. ceildiv(N, 64) {\n"
    "    copy X[bx * 4, j * 64], x\n"
    "    copy x, Y[bx * 4, j * 64]\n"
    "  }\n"
    "}\n";

}  // namespace

TEST_CASE("shape symbols become their values everywhere") {
  Result<Kernel> k = parse_and_verify_specialized(kRows, "rows.tile", nullptr, {{"M", 10}, {"N", 300}});
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(k->symbols().empty());
  std::string text = print_kernel(*k);
  CHECK(text.find("X: f32[10, 300]") != std::string::npos);
  CHECK(text.find("ceildiv(10, 4)") != std::string::npos);
  CHECK(text.find("ceildiv(300, 64)") != std::string::npos);
  CHECK(text.find("M") == std::string::npos);
}

TEST_CASE("a tunable kernel is specialised with its binding") {
  const char* text =
      "kernel scale(X: f32[N], Y: f32[N]) tune(B in [64, 128]) grid(ceildiv(N, B)) threads(64) {\n"
      "  alloc x: shared f32[B]\n"
      "  copy X[bx * B], x\n"
      "  copy x, Y[bx * B]\n"
      "}\n";
  Binding b{{"B", 128}};
  Result<Kernel> k = parse_and_verify_specialized(text, "scale.tile", &b, {{"N", 1000}});
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(print_kernel(*k).find("grid(ceildiv(1000, 128))") != std::string::npos);
}

TEST_CASE("values that do not fit the kernel's symbols are refused with the kernel's location") {
  auto refused = [](const Binding& values, const std::string& why) {
    Result<Kernel> k = parse_and_verify_specialized(kRows, "rows.tile", nullptr, values);
    REQUIRE_FALSE(k.is_ok());
    CHECK_MESSAGE(k.status().message().find(why) != std::string::npos, k.status().str());
    CHECK(k.status().str().find("rows.tile:1:1") != std::string::npos);
  };
  refused({{"M", 10}, {"N", 300}, {"j", 2}}, "has no shape symbol 'j'");
  refused({{"M", 10}}, "shape symbol N of kernel rows has no value");
  refused({{"M", -1}, {"N", 3}}, "M = -1 is negative");
}

}  // namespace parse_specialized_test
