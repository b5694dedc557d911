// Parse, verify and print round-trip exactly: printing is a fixed point on every example,
// and the printed text parses back to the same IR.
#include <doctest/doctest.h>

#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/tests/TestUtil.h"

namespace parse_print_roundtrip_test {

using namespace tegula;
using namespace tegula::ir;

TEST_CASE("every example prints to a fixed point") {
  for (const std::string& path : testing::example_files()) {
    CAPTURE(path);
    std::string text = testing::read_example(path);
    REQUIRE(!text.empty());
    auto k1 = parse_and_verify(text, path);
    REQUIRE_MESSAGE(k1.is_ok(), k1.status().str());
    std::string p1 = print_kernel(*k1);
    auto k2 = parse_and_verify(p1, "printed");
    REQUIRE_MESSAGE(k2.is_ok(), k2.status().str());
    CHECK(print_kernel(*k2) == p1);
  }
}

TEST_CASE("printing keeps every operand, attribute and literal") {
  const char* text =
      "kernel k(A: f32[M, 8], s: f32, n: i32) grid(ceildiv(M, 4), 2) threads(64) {\n"
      "  alloc T: shared f32[4, 8]\n"
      "  alloc F: fragment f32[4, 8]\n"
      "  alloc R: fragment f32[4, 1]\n"
      "  copy A[bx * 4, 0], T, pad=-inf\n"
      "  fill F, -0.0\n"
      "  fill R, 1e+20\n"
      "  reduce T, R, op=absmax, axis=1, clear=false\n"
      "  map F = select(T > 0.5 && !(T < 0.25), -T, cast<bf16>(T) * s) + R\n"
      "  for i in 0 .. n - 1 {\n"
      "    parallel (r, c) in (4, 8) {\n"
      "      alloc t: local f32[2]\n"
      "      store t[1] = F[r, c] - -(3)\n"
      "      if r % 2 == 0 || c / 3 >= 1 {\n"
      "        store T[r, c] = t[1]\n"
      "      } else {\n"
      "        store T[r, c] = max(exp2(t[1]), min(nan, inf))\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "  barrier\n"
      "  copy T, A[bx * 4, 0]\n"
      "}\n";
  auto k = parse_and_verify(text, "t.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(print_kernel(*k) == text);
}

TEST_CASE("floats print as the shortest text that reads back exactly") {
  CHECK(print_float(0.1) == "0.1");
  CHECK(print_float(1.0) == "1.0");
  CHECK(print_float(-0.0) == "-0.0");
  CHECK(print_float(1e300) == "1e+300");
  CHECK(print_float(0.30000000000000004) == "0.30000000000000004");
  for (double v : {3.14159, 1.0 / 3.0, 6.02e23, 5e-324, 448.0}) CHECK(std::strtod(print_float(v).c_str(), nullptr) == v);
}

TEST_CASE("parentheses are printed only where precedence needs them") {
  auto k = parse_and_verify(
      "kernel k(A: f32[8]) grid(1) threads(1) {\n"
      "  parallel i in 8 {\n"
      "    store A[i] = (1.0 - (2.0 - 3.0)) * (4.0 + 5.0) / (6.0 * 7.0) - -(8.0 + 9.0)\n"
      "  }\n"
      "}\n");
  REQUIRE(k.is_ok());
  std::string p = print_kernel(*k);
  CHECK(p.find("(1.0 - (2.0 - 3.0)) * (4.0 + 5.0) / (6.0 * 7.0) - -(8.0 + 9.0)") != std::string::npos);
}

}  // namespace parse_print_roundtrip_test
