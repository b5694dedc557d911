// JSON: malformed documents are rejected with a parse error at the right line:column and a
// message that says what was expected; nesting is bounded.
#include <doctest/doctest.h>

#include <string>

#include "core/Json.h"

namespace json_malformed_test {

using namespace tegula;

namespace {

struct Bad {
  std::string text;
  int line;
  int column;
  const char* message;  ///< a substring of the expected message
};

void check_bad(const Bad& b) {
  CAPTURE(b.text);
  Result<Json> r = Json::parse(b.text, "doc.json");
  REQUIRE_FALSE(r.is_ok());
  const Status& s = r.status();
  CHECK(s.code() == ErrorCode::Parse);
  CHECK(s.loc().file == "doc.json");
  CHECK(s.loc().line == b.line);
  CHECK(s.loc().column == b.column);
  CHECK_MESSAGE(s.message().find(b.message) != std::string::npos, s.message());
  // Messages are lower case, like every tegula message.
  CHECK(s.message()[0] == std::tolower(static_cast<unsigned char>(s.message()[0])));
}

}  // namespace

TEST_CASE("structural errors") {
  const Bad cases[] = {
      {"", 1, 1, "expected a json value, found end of input"},
      {"   ", 1, 4, "expected a json value, found end of input"},
      {"[1,2,]", 1, 6, "expected a json value after ',', found ']'"},
      {"{\"a\":1,}", 1, 8, "expected a string key after ',', found '}'"},
      {"{a:1}", 1, 2, "expected a string key in object, found 'a'"},
      {"{\"a\" 1}", 1, 6, "expected ':' after object key, found '1'"},
      {"[1 2]", 1, 4, "expected ',' or ']' in array, found '2'"},
      {"{\"a\":1 \"b\":2}", 1, 8, "expected ',' or '}' in object, found '\"'"},
      {"[1,,2]", 1, 4, "expected a json value, found ','"},
      {"[", 1, 2, "expected a json value, found end of input"},
      {"[1", 1, 3, "expected ',' or ']' in array, found end of input"},
      {"{", 1, 2, "expected a string key in object, found end of input"},
      {"{\"a\":", 1, 6, "expected a json value, found end of input"},
      {"]", 1, 1, "expected a json value, found ']'"},
      {"\"a\" \"b\"", 1, 5, "expected end of input after the json value"},
      {"{\"a\":1,\"a\":2}", 1, 8, "duplicate object key \"a\""},
  };
  for (const Bad& b : cases) check_bad(b);
}

TEST_CASE("comments and non-json literals") {
  const Bad cases[] = {
      {"// comment\n1", 1, 1, "expected a json value, found '/'"},
      {"1 /* comment */", 1, 3, "expected end of input after the json value"},
      {"[1] # x", 1, 5, "expected end of input"},
      {"tru", 1, 1, "expected 'true'"},
      {"nul", 1, 1, "expected 'null'"},
      {"True", 1, 1, "expected a json value, found 'T'"},
      {"NaN", 1, 1, "expected a json value, found 'N'"},
      {"[Infinity]", 1, 2, "expected a json value, found 'I'"},
      {"'single'", 1, 1, "expected a json value, found '''"},
      {"\xef\xbb\xbf{}", 1, 1, "expected a json value, found byte 0xef"},
      {std::string("[1]\0", 4), 1, 4, "expected end of input"},
  };
  for (const Bad& b : cases) check_bad(b);
}

TEST_CASE("number errors") {
  const Bad cases[] = {
      {"[01]", 1, 3, "leading zeros are not allowed"},
      {"-01", 1, 3, "leading zeros are not allowed"},
      {"1.", 1, 3, "expected a digit after '.' in number"},
      {"1.e5", 1, 3, "expected a digit after '.' in number"},
      {"1e", 1, 3, "expected a digit in the exponent of number"},
      {"1e+", 1, 4, "expected a digit in the exponent of number"},
      {"-", 1, 2, "expected a digit in number"},
      {"-Infinity", 1, 2, "expected a digit in number"},
      {"+1", 1, 1, "expected a json value, found '+'"},
      {".5", 1, 1, "expected a json value, found '.'"},
      {"0x10", 1, 2, "expected end of input"},
      {"[1e400]", 1, 2, "number out of range"},
      {"-1e400", 1, 1, "number out of range"},
  };
  for (const Bad& b : cases) check_bad(b);
}

TEST_CASE("string errors") {
  const Bad cases[] = {
      {"\"abc", 1, 1, "expected '\"' to close the string"},
      {"[\"a\", \"b]", 1, 7, "expected '\"' to close the string"},
      {"\"a\tb\"", 1, 3, "unescaped control character in string"},
      {"\"a\nb\"", 1, 3, "unescaped control character in string"},
      {"\"\\x\"", 1, 3, "expected a valid escape character after '\\'"},
      {"\"\\'\"", 1, 3, "expected a valid escape character after '\\'"},
      {"\"\\", 1, 3, "expected an escape character after '\\'"},
      {"\"\\u12G4\"", 1, 6, "expected 4 hex digits in \\u escape"},
      {"\"\\u00\"", 1, 6, "expected 4 hex digits in \\u escape"},
      {"\"\\uDC00\"", 1, 2, "expected a high surrogate before a low surrogate escape"},
      {"\"\\uD800\"", 1, 8, "expected a low surrogate escape after a high surrogate"},
      {"\"\\uD800\\u0041\"", 1, 8, "expected a low surrogate escape after a high surrogate"},
      {"\"\\uD800x\"", 1, 8, "expected a low surrogate escape after a high surrogate"},
      {"\"\xff\"", 1, 2, "invalid utf-8 in string"},
      {"\"\xc3\"", 1, 2, "invalid utf-8 in string"},            // truncated sequence
      {"\"\xc0\xaf\"", 1, 2, "invalid utf-8 in string"},        // overlong '/'
      {"\"\xe0\x80\xaf\"", 1, 2, "invalid utf-8 in string"},    // overlong, 3 bytes
      {"\"\xed\xa0\x80\"", 1, 2, "invalid utf-8 in string"},    // an encoded surrogate
      {"\"\xf4\x90\x80\x80\"", 1, 2, "invalid utf-8 in string"},  // above U+10FFFF
      {"\"ok\x80\"", 1, 4, "invalid utf-8 in string"},          // stray continuation byte
  };
  for (const Bad& b : cases) check_bad(b);
}

TEST_CASE("locations count lines and columns") {
  const Bad cases[] = {
      {"[1]\n\n  ]", 3, 3, "expected end of input"},
      {"{\n  \"a\": [1,\n    2,\n  }\n}", 4, 3, "expected a json value, found '}'"},
      {"{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "expected ':' after object key"},
      {"[\r\n  tru\r\n]", 2, 3, "expected 'true'"},
      {"[\n\t\"x\ty\"]", 2, 4, "unescaped control character"},
  };
  for (const Bad& b : cases) check_bad(b);
}

TEST_CASE("str() carries the file, line and column") {
  Result<Json> r = Json::parse("[1,]", "m.json");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().str() == "m.json:1:4: error: expected a json value after ',', found ']'");
  Result<Json> unnamed = Json::parse("x");
  CHECK(unnamed.status().str() == "<input>:1:1: error: expected a json value, found 'x'");
}

TEST_CASE("deep nesting is rejected cleanly") {
  // One level past the limit, and far past it: an error, not a stack overflow.
  for (size_t depth : {size_t(513), size_t(100000), size_t(1000000)}) {
    CAPTURE(depth);
    std::string arrays = std::string(depth, '[') + std::string(depth, ']');
    Result<Json> r = Json::parse(arrays);
    REQUIRE_FALSE(r.is_ok());
    CHECK(r.status().code() == ErrorCode::Parse);
    CHECK(r.status().loc().column == 513);
    CHECK(r.status().message().find("nesting deeper than 512") != std::string::npos);

    std::string objects;
    for (size_t i = 0; i < depth; ++i) objects += "{\"a\":";
    objects += "1" + std::string(depth, '}');
    Result<Json> o = Json::parse(objects);
    REQUIRE_FALSE(o.is_ok());
    CHECK(o.status().message().find("nesting deeper than 512") != std::string::npos);
  }
  // Unterminated deep input fails the same way.
  CHECK_FALSE(Json::parse(std::string(100000, '[')).is_ok());
}

TEST_CASE("many keys do not make duplicate detection slow") {
  std::string text = "{";
  for (int i = 0; i < 100000; ++i) {
    if (i) text += ',';
    text += "\"k" + std::to_string(i) + "\":" + std::to_string(i);
  }
  text += "}";
  Result<Json> r = Json::parse(text);
  REQUIRE(r.is_ok());
  CHECK(r->size() == 100000);
  CHECK(r->find("k99999")->as_int() == 99999);
}

}  // namespace json_malformed_test
