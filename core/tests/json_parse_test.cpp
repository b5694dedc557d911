// JSON: well-formed documents parse to the right values, and dump() is canonical and
// reads back to an equal value.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/Json.h"

namespace json_parse_test {

using namespace tegula;

namespace {

Json parse_ok(std::string_view text) {
  Result<Json> r = Json::parse(text);
  if (!r.is_ok()) FAIL(r.status().str() << " in: " << std::string(text));
  return std::move(r).value();
}

}  // namespace

TEST_CASE("literals") {
  CHECK(parse_ok("null").is_null());
  CHECK(parse_ok("true").as_bool());
  CHECK(parse_ok("false").is_bool());
  CHECK_FALSE(parse_ok("false").as_bool());
  CHECK(parse_ok("  \t\r\n null \n").is_null());
}

TEST_CASE("integers stay integers when they fit in int64") {
  Json j = parse_ok("42");
  CHECK(j.is_number());
  CHECK(j.is_int());
  CHECK(j.as_int() == 42);
  CHECK(j.as_double() == 42.0);
  CHECK(parse_ok("-7").as_int() == -7);
  CHECK(parse_ok("0").is_int());
  CHECK(parse_ok("-0").is_int());
  CHECK(parse_ok("9223372036854775807").as_int() == INT64_MAX);
  CHECK(parse_ok("-9223372036854775808").as_int() == INT64_MIN);
  // One past int64: still a number, but a double.
  Json big = parse_ok("9223372036854775808");
  CHECK(big.is_number());
  CHECK_FALSE(big.is_int());
  CHECK(big.as_double() == 9223372036854775808.0);
  CHECK_FALSE(parse_ok("123456789012345678901234567890").is_int());
}

TEST_CASE("as_int of a number beyond int64 saturates instead of being undefined") {
  CHECK(parse_ok("1e300").as_int() == INT64_MAX);
  CHECK(parse_ok("-1e300").as_int() == INT64_MIN);
  CHECK(parse_ok("9223372036854775808").as_int() == INT64_MAX);
  CHECK(parse_ok("2.9").as_int() == 2);
}

TEST_CASE("numbers with a fraction or exponent are doubles") {
  CHECK_FALSE(parse_ok("1.0").is_int());
  CHECK(parse_ok("1.0").as_double() == 1.0);
  CHECK_FALSE(parse_ok("1e2").is_int());
  CHECK(parse_ok("1e2").as_double() == 100.0);
  CHECK(parse_ok("-2.5E-3").as_double() == -0.0025);
  CHECK(parse_ok("1E+2").as_double() == 100.0);
  CHECK(parse_ok("0.1").as_double() == 0.1);
  CHECK(parse_ok("1.7976931348623157e308").as_double() == std::numeric_limits<double>::max());
  CHECK(parse_ok("4.9406564584124654e-324").as_double() ==
        std::numeric_limits<double>::denorm_min());
  // Underflow is not an error: it is zero, with its sign.
  CHECK(parse_ok("1e-400").as_double() == 0.0);
  CHECK(std::signbit(parse_ok("-1e-400").as_double()));
  CHECK(parse_ok("0e999999999").as_double() == 0.0);
  CHECK(std::signbit(parse_ok("-0.0").as_double()));
}

TEST_CASE("strings and escapes") {
  CHECK(parse_ok("\"\"").as_string().empty());
  CHECK(parse_ok("\"abc\"").as_string() == "abc");
  CHECK(parse_ok(R"("a\"b\\c\/d\be\ff\ng\rh\ti")").as_string() ==
        "a\"b\\c/d\be\ff\ng\rh\ti");
  CHECK(parse_ok(R"("\u0041\u00e9\u20AC")").as_string() == "A\xc3\xa9\xe2\x82\xac");
  CHECK(parse_ok(R"("\u0000")").as_string() == std::string(1, '\0'));
  // A surrogate pair is one code point (U+1F600), four bytes of UTF-8.
  CHECK(parse_ok(R"("\ud83d\ude00")").as_string() == "\xf0\x9f\x98\x80");
  CHECK(parse_ok(R"("\uDBFF\uDFFF")").as_string() == "\xf4\x8f\xbf\xbf");
  // Raw UTF-8 passes through.
  CHECK(parse_ok("\"h\xc3\xa9llo \xf0\x9f\x98\x80\"").as_string() ==
        "h\xc3\xa9llo \xf0\x9f\x98\x80");
  // DEL (0x7f) is not a control character in JSON's sense.
  CHECK(parse_ok("\"\x7f\"").as_string() == "\x7f");
}

TEST_CASE("arrays and objects") {
  Json a = parse_ok("[1, \"two\", [3], {\"four\": 4}, null]");
  REQUIRE(a.is_array());
  CHECK(a.size() == 5);
  CHECK(a.items()[0].as_int() == 1);
  CHECK(a.items()[1].as_string() == "two");
  CHECK(a.items()[2].items()[0].as_int() == 3);
  CHECK(a.items()[3].find("four")->as_int() == 4);
  CHECK(a.items()[4].is_null());
  CHECK(parse_ok("[]").size() == 0);
  CHECK(parse_ok("[ ]").is_array());
  CHECK(parse_ok("{}").is_object());
  CHECK(parse_ok("{ }").size() == 0);

  Json o = parse_ok("{\"b\": 1, \"a\": [true, false], \"c\": {\"d\": null}}");
  REQUIRE(o.is_object());
  CHECK(o.size() == 3);
  // Members keep the order of the text.
  CHECK(o.members()[0].first == "b");
  CHECK(o.members()[1].first == "a");
  CHECK(o.members()[2].first == "c");
  CHECK(o.find("a")->items()[0].as_bool());
  CHECK(o.find("c")->find("d")->is_null());
  CHECK(o.find("missing") == nullptr);
  CHECK(o.find("a")->find("x") == nullptr);  // not an object
}

TEST_CASE("building values: set, push, size, equality") {
  Json o = Json::object();
  o.set("x", 1);
  o.set("y", "two");
  o.set("x", 3);  // replaces, keeps position
  CHECK(o.size() == 2);
  CHECK(o.members()[0].first == "x");
  CHECK(o.find("x")->as_int() == 3);

  Json a = Json::array();
  a.push(1);
  Json& inner = a.push(Json::array());
  inner.push(true);  // push returns the new element, so it can be filled in place
  CHECK(a.size() == 2);
  CHECK(a.items()[1].size() == 1);
  CHECK(a == Json::array({1, Json::array({true})}));

  CHECK(Json(1) == Json(int64_t(1)));
  CHECK(Json(1) == Json(1.0));
  CHECK_FALSE(Json(1) == Json(2));
  CHECK_FALSE(Json(1) == Json("1"));
  CHECK(Json("s") == Json(std::string("s")));
  CHECK_FALSE(Json() == Json(false));
  CHECK(Json::array({1, 2}) == Json::array({1, 2}));
  CHECK_FALSE(Json::array({1, 2}) == Json::array({2, 1}));
  CHECK(Json::object({{"a", 1}}) == Json::object({{"a", 1}}));
  CHECK_FALSE(Json::object({{"a", 1}}) == Json::object({{"a", 2}}));
  CHECK(Json(int64_t(INT64_MAX)) == Json(int64_t(INT64_MAX)));
  CHECK_FALSE(Json(int64_t(INT64_MAX)) == Json(int64_t(INT64_MAX - 1)));
  CHECK(Json().size() == 0);
}

TEST_CASE("dump is canonical") {
  Json o = Json::object();
  o.set("name", "k\"1\"\n");
  o.set("n", 42);
  o.set("neg", -7);
  o.set("half", 0.5);
  o.set("whole", 2.0);
  o.set("ok", true);
  o.set("none", nullptr);
  o.set("list", Json::array({1, 2.5, "x"}));
  o.set("empty", Json::object());
  CHECK(o.dump() ==
        R"({"name":"k\"1\"\n","n":42,"neg":-7,"half":0.5,"whole":2.0,"ok":true,"none":null,)"
        R"("list":[1,2.5,"x"],"empty":{}})");
  CHECK(Json(std::string("\x01\x1f\t")).dump() == R"("\u0001\u001f\t")");
  CHECK(Json("caf\xc3\xa9").dump() == "\"caf\xc3\xa9\"");
  CHECK(Json(0.1).dump() == "0.1");
  CHECK(Json(1e300).dump() == "1e+300");
  CHECK(Json(-0.0).dump() == "-0.0");
  CHECK(Json(int64_t(INT64_MIN)).dump() == "-9223372036854775808");
}

TEST_CASE("dump writes null for NaN and Inf") {
  CHECK(Json(std::numeric_limits<double>::quiet_NaN()).dump() == "null");
  CHECK(Json(std::numeric_limits<double>::infinity()).dump() == "null");
  CHECK(Json(-std::numeric_limits<double>::infinity()).dump() == "null");
  CHECK(Json::array({Json(std::nan(""))}).dump() == "[null]");
}

TEST_CASE("pretty dump") {
  Json o = Json::object({{"a", Json::array({1, 2})}, {"b", Json::object()}, {"c", "d"}});
  CHECK(o.dump(2) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": \"d\"\n}");
  CHECK(parse_ok(o.dump(2)) == o);
  CHECK(Json::array().dump(2) == "[]");
}

TEST_CASE("dump then parse gives an equal value") {
  const char* docs[] = {
      "null",
      "[1,-2,3.25,1e-300,1.7976931348623157e308,0.1,0.30000000000000004]",
      R"({"a":{"b":{"c":[[],[[]],{}]}},"s":"\u0000\u001f\"\\/\ud83d\ude00"})",
      R"([true,false,null,"","x",123456789012345678,-9223372036854775808])",
      R"({"k":5e-324,"m":-0.0,"n":2.0,"big":1e20})",
  };
  for (const char* text : docs) {
    CAPTURE(text);
    Json a = parse_ok(text);
    std::string once = a.dump();
    Json b = parse_ok(once);
    CHECK(a == b);
    // A second trip is byte-identical: the output is a fixed point.
    CHECK(b.dump() == once);
    // Kinds survive: integers stay integers, doubles stay doubles.
    if (a.is_array()) {
      for (size_t i = 0; i < a.size(); ++i) {
        CHECK(a.items()[i].is_int() == b.items()[i].is_int());
      }
    }
  }
  // Doubles read back bit for bit.
  for (double d : {0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-310, 123456.789e100, -5e-324, 6.02214076e23}) {
    Json back = parse_ok(Json(d).dump());
    CHECK(back.as_double() == d);
    CHECK_FALSE(back.is_int());
  }
}

TEST_CASE("nesting up to the limit parses") {
  std::string deep = std::string(512, '[') + std::string(512, ']');
  Result<Json> r = Json::parse(deep);
  REQUIRE(r.is_ok());
  CHECK(r->dump() == deep);
}

}  // namespace json_parse_test
