// A float literal that does not fit in a double (1e400 would become inf, 1e-400 would become
// 0) is an error at the literal; subnormal doubles, zeros and the largest double are kept.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "ir/Parser.h"

namespace float_literal_range_test {

using namespace tegula;
using namespace tegula::ir;

static std::string fill_with(const std::string& literal) {
  return "kernel k(A: f32[4]) grid(1) threads(4) {\n"
         "  alloc F: fragment f32[4]\n"
         "  fill F, " + literal + "\n"
         "  copy F, A[0]\n"
         "}\n";
}

TEST_CASE("literals past the range of a double are located errors") {
  for (const char* lit : {"1e400", "-1e400", "1.5e309", "1e-400", "-2.5e-330"}) {
    INFO(lit);
    auto k = parse_and_verify(fill_with(lit), "lit.tile");
    REQUIRE_FALSE(k.is_ok());
    CHECK(k.status().message().find("float literal out of range") != std::string::npos);
    CHECK(k.status().loc().line == 3);
    CHECK(k.status().loc().column >= 11);
  }
}

TEST_CASE("literals at the edges of the range are kept exactly") {
  for (const char* lit : {"1.7976931348623157e308", "4.9406564584124654e-324", "2.2250738585072014e-308", "0.0", "0e400",
                          "0.000e-999", "-0.0", "inf"}) {
    INFO(lit);
    auto k = parse_and_verify(fill_with(lit), "lit.tile");
    CHECK_MESSAGE(k.is_ok(), k.status().str());
  }
}

}  // namespace float_literal_range_test
