// The null skeleton's compile is its C++ path: it reads the lowered form with ir::read_lowered
// before answering. A kernel lowered for a real target is read (the answer, unimplemented,
// names it); text that is not lowered IR is a located TG_ERR_COMPILE; another IR format is
// TG_ERR_UNSUPPORTED; NULL arguments are TG_ERR_INVALID_ARGUMENT.
#include <doctest/doctest.h>

#include <dlfcn.h>

#include <string>

#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "runtime/tests/TestSupport.h"
#include "targets/Target.h"

namespace null_plugin_compile_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("null compile reads the lowered form") {
  void* handle = ::dlopen(plugin_library("null").c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(handle);
  auto query = reinterpret_cast<tg_plugin_query_fn>(::dlsym(handle, "tg_plugin_query"));
  REQUIRE((query != nullptr));
  const tg_plugin_api* api = query(1, 1, nullptr);
  REQUIRE(api);
  auto answer = [&](const std::string& format, const std::string& text) {
    tg_compile_request request = {sizeof(request), nullptr, format.c_str(), text.data(), text.size(), ""};
    tg_blob blob = {sizeof(blob)};
    tg_error* e = api->compile(nullptr, &request, &blob);
    REQUIRE(e != nullptr);
    std::pair<tg_status_code, std::string> out{api->error_code(e), api->error_message(e)};
    api->error_destroy(e);
    return out;
  };

  auto kernel = ir::parse_and_verify(R"(
kernel scale(X: f32[N], Y: f32[N]) grid(ceildiv(N, 64)) threads(64) {
  alloc x: fragment f32[64]
  copy X[bx * 64], x
  map x = x * 2.0
  copy x, Y[bx * 64]
}
)");
  REQUIRE_MESSAGE(kernel.is_ok(), kernel.status().str());
  auto target = builtin_target("host_cpu");
  REQUIRE(target.is_ok());
  auto lowered = ir::lower(*kernel, *target);
  REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
  std::string text = ir::print_kernel(lowered->kernel);

  auto read = answer(TG_IR_FORMAT_LOWERED_V1, text);
  CHECK(read.first == TG_ERR_UNIMPLEMENTED);
  CHECK(read.second == "null: compile is not implemented (read kernel scale)");

  auto garbage = answer(TG_IR_FORMAT_LOWERED_V1, "kernel broken(");
  CHECK(garbage.first == TG_ERR_COMPILE);
  CHECK_MESSAGE(garbage.second.find("null: compile: <compile request>:1:") == 0, garbage.second);

  auto other = answer("tegula.mlir.v9", text);
  CHECK(other.first == TG_ERR_UNSUPPORTED);

  tg_error* e = api->compile(nullptr, nullptr, nullptr);
  REQUIRE(e != nullptr);
  CHECK(api->error_code(e) == TG_ERR_INVALID_ARGUMENT);
  api->error_destroy(e);
  ::dlclose(handle);
}

}  // namespace null_plugin_compile_test
