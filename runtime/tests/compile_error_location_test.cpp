// An error in the IR keeps its location through both APIs: tegula_error_message begins
// "file:line:column: " (file = the compile options' source_name), tegula_error_get_location
// gives the parts, and the C++ Status has it as loc().
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace compile_error_location_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

const char* kBad = "kernel k(X: f32[N]) grid(1) threads(32) {\n  alloc x: fragment f32[32]\n  copy X[0], y\n}\n";

}  // namespace

TEST_CASE("the C API") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  tegula_compile_options o;
  tegula_compile_options_init(&o);
  o.source_name = "bad.tile";
  tegula_kernel* k = nullptr;
  tegula_error* e = tegula_kernel_compile(d->handle(), kBad, std::strlen(kBad), &o, &k);
  REQUIRE(e != nullptr);
  std::string message = tegula_error_message(e);
  CHECK(message.find("bad.tile:3:") == 0);
  tegula_error_location where;
  where.struct_size = sizeof(where);
  REQUIRE(tegula_error_get_location(e, &where) == 1);
  CHECK(std::string(where.file) == "bad.tile");
  CHECK(where.line == 3);
  CHECK(where.column > 0);
  CHECK(message == "bad.tile:3:" + std::to_string(where.column) + ": " + where.message);
  CHECK(std::string(where.message).find("bad.tile") == std::string::npos);
  tegula_error_free(e);
}

TEST_CASE("the C++ API, and errors without a location") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  CompileOptions o;
  o.source_name = "bad.tile";
  auto k = d->compile(kBad, o);
  REQUIRE_FALSE(k.is_ok());
  CHECK(k.status().loc().file == "bad.tile");
  CHECK(k.status().loc().line == 3);
  CHECK(k.status().str().find("bad.tile:3:") == 0);
  // A launch error has no location: the message is unchanged and get_location says 0.
  tegula_error* e = tegula_launch(nullptr, nullptr, 0);
  tegula_error_location where;
  where.struct_size = sizeof(where);
  CHECK(tegula_error_get_location(e, &where) == 0);
  CHECK(where.line == 0);
  CHECK(std::string(tegula_error_message(e)) == "tegula_launch: kernel is NULL");
  CHECK(std::string(where.message) == "tegula_launch: kernel is NULL");
  tegula_error_free(e);
  CHECK(tegula_error_get_location(nullptr, &where) == 0);
}

}  // namespace compile_error_location_test
