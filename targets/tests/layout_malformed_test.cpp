// Malformed layout text is rejected with a message naming the column and what was expected.
#include <doctest/doctest.h>

#include "targets/Layout.h"

namespace layout_malformed_test {

using namespace tegula;

static void check_rejected(const char* text, const std::string& message) {
  CAPTURE(text);
  Result<Layout> l = Layout::parse(text);
  REQUIRE(!l.is_ok());
  CHECK(l.status().code() == ErrorCode::Parse);
  CHECK(l.status().message() == message);
}

TEST_CASE("malformed layouts") {
  check_rejected("", "layout \"\": empty layout at column 1 (found end of text)");
  check_rejected("(4,8)", "layout \"(4,8)\": expected ':' between shape and stride at column 6 (found end of text)");
  check_rejected("(4,8):", "layout \"(4,8):\": expected an integer, a symbol or '(' at column 7 (found end of text)");
  check_rejected("(4,8:(1,4)", "layout \"(4,8:(1,4)\": expected ',' or ')' at column 5 (found ':')");
  check_rejected("(4,8):(1,4))", "layout \"(4,8):(1,4))\": unexpected text after the stride at column 12 (found ')')");
  check_rejected("():()", "layout \"():()\": expected an integer, a symbol or '(' at column 2 (found ')')");
  check_rejected("(4,,8):(1,4)", "layout \"(4,,8):(1,4)\": expected an integer, a symbol or '(' at column 4 (found ',')");
  check_rejected("(4,8)*2:(1,4)", "layout \"(4,8)*2:(1,4)\": arithmetic on a tuple at column 6");
  check_rejected("4:2+(1,2)", "layout \"4:2+(1,2)\": arithmetic on a tuple at column 4");
  check_rejected("4:#", "layout \"4:#\": expected an integer, a symbol or '(' at column 3 (found '#')");
  check_rejected("99999999999999999999:1", "layout \"99999999999999999999:1\": integer too large at column 19 (found '9')");
  check_rejected("4:1:2", "layout \"4:1:2\": unexpected text after the stride at column 4 (found ':')");
  check_rejected("opaque", "layout \"opaque\": expected ':' between shape and stride at column 7 (found end of text)");
}

TEST_CASE("shape and stride must have the same structure") {
  check_rejected("(4,8):1", "layout \"(4,8):1\": shape is a tuple of 2 but stride is a single value");
  check_rejected("((4,8),2):((1,4,8),32)",
                 "layout \"((4,8),2):((1,4,8),32)\": shape[0] is a tuple of 2 but stride[0] is a tuple of 3");
  check_rejected("(4,(2,2)):(1,4)",
                 "layout \"(4,(2,2)):(1,4)\": shape[1] is a tuple of 2 but stride[1] is a single value");
}

}  // namespace layout_malformed_test
