// Misused bit operators and bitcasts are refused with file:line:column and the cause: bit
// operators on floats and booleans (with the operator probably meant), `!` on an integer,
// bitcasts between dtypes of different sizes or of bool, and malformed hex literals.
#include <doctest/doctest.h>

#include <string>

#include "ir/Parser.h"

namespace bit_ops_misuse_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Case {
  const char* name;
  const char* value;  // stored into Z[i] on line 3; its text starts at column 18
  int column;
  const char* message;
};

const Case kCases[] = {
    {"& on f32", "F[i] & 1", 23, "'&' needs integer operands, found a float (f32)"},
    {"<< on f32", "cast<i32>(F[i] << 2)", 33, "'<<' needs integer operands, found a float (f32)"},
    {">>> of a float count", "X[i] >>> 2.5", 23, "'>>>' needs integer operands, found a float (f32)"},
    {"| on booleans", "select((X[i] > 0) | (X[i] < 3), 1, 0)", 36, "did you mean '||'?"},
    {"~ on a boolean", "select(~(X[i] > 0), 1, 0)", 25, "'~' needs an integer, found a boolean (did you mean '!'?)"},
    {"~ on f32", "cast<i32>(~F[i])", 28, "'~' needs an integer, found a float (f32)"},
    {"! on an integer", "select(!X[i], 1, 0)", 25, "'!' needs a boolean (for the bits of an integer, '~')"},
    {"bitcast f32 to f16", "cast<i32>(bitcast<f16>(F[i]))", 28, "bitcast<f16> needs an operand of 2 bytes, found a float (f32) of 4 bytes"},
    {"bitcast i32 word to u8", "bitcast<u8>(X[i] + 1)", 18, "bitcast<u8> needs an operand of 1 byte, found an integer (i32) of 4 bytes"},
    {"bitcast f32 to f64", "cast<i32>(bitcast<f64>(F[i]))", 28, "bitcast<f64> needs an operand of 8 bytes"},
    {"bitcast to bool", "select(bitcast<bool>(U[i]), 1, 0)", 25, "bool is a truth value, not a bit pattern"},
    {"bitcast of a bool", "bitcast<u8>(X[i] > 0)", 18, "bool is a truth value, not a bit pattern"},
    {"hex without digits", "X[i] & 0x", 25, "'0x' must be followed by hexadecimal digits"},
    {"hex followed by a letter", "X[i] & 0xfg", 25, "a hexadecimal literal must not be followed"},
    {"hex out of range", "X[i] & 0x10000000000000000", 25, "integer literal out of range"},
};

std::string kernel(const std::string& value) {
  return "kernel k(X: i32[8], F: f32[8], U: u8[8], Z: i32[8]) grid(1) threads(8) {\n"
         "  parallel i in 8 {\n"
         "    store Z[i] = " + value + "\n"
         "  }\n}\n";
}

}  // namespace

TEST_CASE("misused bit operators and bitcasts are refused with location and cause") {
  for (const Case& c : kCases) {
    CAPTURE(c.name);
    auto k = parse_and_verify(kernel(c.value), "bits.tile");
    REQUIRE_FALSE(k.is_ok());
    const Status& st = k.status();
    INFO(st.str());
    CHECK(st.loc().file == "bits.tile");
    CHECK(st.loc().line == 3);
    CHECK(st.loc().column == c.column);
    CHECK(st.message().find(c.message) != std::string::npos);
  }
}

TEST_CASE("the same operators verify on integers, and bitcast between same-size dtypes") {
  for (const char* ok : {"X[i] & 1", "~X[i] | U[i] << 3", "X[i] >>> 4 * i & 15", "bitcast<i32>(F[i])",
                         "bitcast<i32>(bitcast<f32>(X[i]))", "bitcast<i8>(U[i])", "cast<i32>(bitcast<e4m3>(U[i]))",
                         "select(X[i] & 1 == 0, 1, 0)", "X[i] & 0xFF"}) {
    CAPTURE(ok);
    auto k = parse_and_verify(kernel(ok), "bits.tile");
    CHECK_MESSAGE(k.is_ok(), k.status().str());
  }
}

}  // namespace bit_ops_misuse_test
