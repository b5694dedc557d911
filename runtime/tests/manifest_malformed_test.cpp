// Misuse: every malformed manifest is refused with the file, the JSON path and the cause.
#include <doctest/doctest.h>

#include "runtime/Manifest.h"

namespace manifest_malformed_test {

using namespace tegula::runtime;

namespace {

std::string error_for(const std::string& text) {
  auto m = parse_manifest(text, "/m/bad.json");
  if (m.is_ok()) return "(parsed)";
  CHECK(m.status().code() == tegula::ErrorCode::Parse);
  return m.status().message();
}

std::string plugin(const std::string& fields) {
  return R"({"file_format_version": "1.0.0", "plugin": {)" + fields + "}}";
}

const char* kGood = R"("name": "a", "library_path": "liba.so", "abi_min": 1, "abi_max": 1)";

}  // namespace

TEST_CASE("invalid JSON names file, line and column") {
  std::string e = error_for("{\"file_format_version\": \"1.0.0\",\n  \"plugin\": {,}}");
  CHECK(e.find("/m/bad.json:2:") == 0);
  CHECK(e.find("invalid JSON") != std::string::npos);
}

TEST_CASE("structural errors") {
  CHECK(error_for("[1]") == "/m/bad.json: (root): expected an object, got an array");
  CHECK(error_for(R"({"plugin": {}})") == "/m/bad.json: file_format_version: missing (required)");
  CHECK(error_for(R"({"file_format_version": "1.0.0"})") == "/m/bad.json: plugin: missing (required)");
  CHECK(error_for(R"({"file_format_version": "1.0.0", "plugin": 3})") ==
        "/m/bad.json: plugin: expected an object, got a number");
}

TEST_CASE("file_format_version") {
  CHECK(error_for(R"({"file_format_version": 1, "plugin": {}})") ==
        "/m/bad.json: file_format_version: expected a string, got a number");
  CHECK(error_for(R"({"file_format_version": "1.0", "plugin": {}})") ==
        "/m/bad.json: file_format_version: expected \"MAJOR.MINOR.PATCH\", got \"1.0\"");
  CHECK(error_for(R"({"file_format_version": "1.0.0x", "plugin": {}})").find("MAJOR.MINOR.PATCH") != std::string::npos);
  CHECK(error_for(R"({"file_format_version": "2.0.0", "plugin": {}})") ==
        "/m/bad.json: file_format_version: unsupported version 2.0.0 (this loader reads 1.x.y)");
}

TEST_CASE("unknown keys in format 1.0 (typos) are errors") {
  CHECK(error_for(plugin(R"("name": "a", "libary_path": "x.so", "abi_min": 1, "abi_max": 1)")) ==
        "/m/bad.json: plugin.libary_path: unknown key (file format 1.0 defines no such field)");
}

TEST_CASE("fields: missing, wrong type, out of range") {
  CHECK(error_for(plugin(R"("library_path": "x.so", "abi_min": 1, "abi_max": 1)")) ==
        "/m/bad.json: plugin.name: missing (required)");
  CHECK(error_for(plugin(R"("name": "CUDA", "library_path": "x.so", "abi_min": 1, "abi_max": 1)")) ==
        "/m/bad.json: plugin.name: \"CUDA\" is not a plugin name ([a-z0-9_], 1 to 64 characters)");
  CHECK(error_for(plugin(R"("name": "a:b", "library_path": "x.so", "abi_min": 1, "abi_max": 1)")).find("not a plugin name") != std::string::npos);
  CHECK(error_for(plugin(R"("name": "a", "library_path": "", "abi_min": 1, "abi_max": 1)")) ==
        "/m/bad.json: plugin.library_path: is empty");
  CHECK(error_for(plugin(R"("name": "a", "library_path": "x\u0000.so", "abi_min": 1, "abi_max": 1)")) ==
        "/m/bad.json: plugin.library_path: contains a NUL character");
  CHECK(error_for(plugin(R"("name": "a", "library_path": "x.so", "abi_min": "1", "abi_max": 1)")) ==
        "/m/bad.json: plugin.abi_min: expected an integer, got a string");
  CHECK(error_for(plugin(R"("name": "a", "library_path": "x.so", "abi_min": 1.5, "abi_max": 1)")) ==
        "/m/bad.json: plugin.abi_min: expected an integer, got a number");
  CHECK(error_for(plugin(R"("name": "a", "library_path": "x.so", "abi_min": -1, "abi_max": 1)")) ==
        "/m/bad.json: plugin.abi_min: must be from 0 to 4294967295, got -1");
  CHECK(error_for(plugin(R"("name": "a", "library_path": "x.so", "abi_min": 3, "abi_max": 2)")) ==
        "/m/bad.json: plugin.abi_min: is greater than plugin.abi_max (3 > 2)");
  CHECK(error_for(plugin(std::string(kGood) + R"(, "library_arch": "")")) == "/m/bad.json: plugin.library_arch: is empty");
  CHECK(error_for(plugin(std::string(kGood) + R"(, "allow_unload": "yes")")) ==
        "/m/bad.json: plugin.allow_unload: expected a boolean, got a string");
}

TEST_CASE("a file that is not a small regular file is refused before reading") {
  auto m = read_manifest("/nonexistent/x.json");
  CHECK(m.status().code() == tegula::ErrorCode::Io);
  auto d = read_manifest("/tmp");
  CHECK(d.status().message() == "/tmp: not a regular file");
}

}  // namespace manifest_malformed_test
