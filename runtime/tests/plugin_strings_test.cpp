// Strings from plugins are read with a bound, checked, and copied.
#include <doctest/doctest.h>

#include <string>

#include "runtime/PluginStrings.h"

namespace plugin_strings_test {

using namespace tegula::runtime;

TEST_CASE("identity strings: NULL, too long, bad UTF-8 and control characters are refused") {
  CHECK(plugin_string("cuda", 16, "name").value() == "cuda");
  CHECK(plugin_string("h\xc3\xa9", 16, "name").value() == "h\xc3\xa9");
  CHECK(plugin_string(nullptr, 16, "get_info: name").status().message() == "get_info: name is NULL");
  std::string long_text(100, 'x');
  CHECK(plugin_string(long_text.c_str(), 16, "name").status().message() ==
        "name is longer than 16 bytes (or not NUL-terminated)");
  CHECK(plugin_string("\xc3\x28", 16, "vendor").status().message() == "vendor is not valid UTF-8");
  CHECK(plugin_string("a\x1b[31m", 16, "name").status().message() == "name contains control characters");
}

TEST_CASE("UTF-8 validation rejects overlong forms and surrogates") {
  CHECK(valid_utf8("plain"));
  CHECK(valid_utf8("\xe2\x82\xac\xf0\x9f\x98\x80"));
  CHECK_FALSE(valid_utf8("\xc0\xaf"));          // overlong '/'
  CHECK_FALSE(valid_utf8("\xed\xa0\x80"));      // a surrogate
  CHECK_FALSE(valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(valid_utf8("\xe2\x82"));          // truncated
}

TEST_CASE("messages never fail: NULL, cut, and bytes replaced") {
  CHECK(plugin_message(nullptr) == "(no message)");
  CHECK(plugin_message("a\xff" "b\x01\n") == "a?b?\n");
  std::string long_text(100, 'x');
  CHECK(plugin_message(long_text.c_str(), 10) == std::string(10, 'x') + "...");
}

}  // namespace plugin_strings_test
