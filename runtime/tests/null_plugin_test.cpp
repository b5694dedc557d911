// The null skeleton loads and enumerates cleanly (0 devices), and every other entry answers
// TG_ERR_UNIMPLEMENTED through proper error objects (compile, which reads the lowered form
// first: null_plugin_compile_test.cpp).
#include <doctest/doctest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstring>

#include "runtime/tests/TestSupport.h"

namespace null_plugin_test {

using namespace tegula::testing;

TEST_CASE("the null plugin loads with no devices") {
  CapturedLog log;
  auto rt = open_runtime({null_manifest()}, &log);
  REQUIRE(rt.is_ok());
  CHECK(tegula_runtime_plugin_count(rt->handle()) == 1);
  CHECK(tegula_device_count(rt->handle()) == 0);
  CHECK(rt->skipped().empty());
  CHECK(log.contains("plugin null: null: initialised"));
}

TEST_CASE("every stub answers TG_ERR_UNIMPLEMENTED with a message") {
  void* handle = ::dlopen(plugin_library("null").c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(handle);
  auto query = reinterpret_cast<tg_plugin_query_fn>(::dlsym(handle, "tg_plugin_query"));
  REQUIRE((query != nullptr));
  const char* refusal = nullptr;
  CHECK(query(2, 3, &refusal) == nullptr);
  CHECK(std::string(refusal) == "the null plugin speaks only tegula plugin ABI 1");
  const tg_plugin_api* api = query(1, 1, &refusal);
  REQUIRE(api);

  tg_host_info host = {sizeof(tg_host_info), nullptr, 1, 0, "test", nullptr, nullptr};
  tg_plugin* plugin = nullptr;
  REQUIRE(api->init(&host, &plugin) == nullptr);
  uint32_t count = 7;
  REQUIRE(api->device_count(plugin, &count) == nullptr);
  CHECK(count == 0);

  auto expect_unimplemented = [&](tg_error* e, const char* entry) {
    INFO(entry);
    REQUIRE(e != nullptr);
    CHECK(api->error_code(e) == TG_ERR_UNIMPLEMENTED);
    CHECK(std::string(api->error_message(e)) == std::string("null: ") + entry + " is not implemented");
    api->error_destroy(e);
  };
  tg_device_properties props = {sizeof(props)};
  expect_unimplemented(api->device_properties(plugin, 0, &props), "device_properties");
  tg_target_description target = {sizeof(target)};
  expect_unimplemented(api->device_target(plugin, 0, &target), "device_target");
  tg_device* device = nullptr;
  expect_unimplemented(api->device_open(plugin, 0, &device), "device_open");
  expect_unimplemented(api->queue_create(nullptr, nullptr), "queue_create");
  expect_unimplemented(api->queue_synchronize(nullptr), "queue_synchronize");
  expect_unimplemented(api->buffer_alloc(nullptr, 8, nullptr), "buffer_alloc");
  expect_unimplemented(api->copy_h2d(nullptr, nullptr, 0, nullptr, 0), "copy_h2d");
  expect_unimplemented(api->copy_d2h(nullptr, nullptr, nullptr, 0, 0), "copy_d2h");
  expect_unimplemented(api->copy_d2d(nullptr, nullptr, 0, nullptr, 0, 0), "copy_d2d");
  expect_unimplemented(api->buffer_fill(nullptr, nullptr, 0, 0, nullptr, 1), "buffer_fill");
  expect_unimplemented(api->executable_load(nullptr, nullptr, 0, nullptr), "executable_load");
  expect_unimplemented(api->launch(nullptr, nullptr, nullptr), "launch");
  expect_unimplemented(api->event_create(nullptr, nullptr), "event_create");
  expect_unimplemented(api->event_record(nullptr, nullptr), "event_record");
  expect_unimplemented(api->event_synchronize(nullptr), "event_synchronize");
  double ms = 0;
  expect_unimplemented(api->event_elapsed_ms(nullptr, nullptr, &ms), "event_elapsed_ms");
  expect_unimplemented(api->compile_offline(plugin, nullptr, nullptr, nullptr), "compile_offline");
  expect_unimplemented(api->executable_describe(plugin, nullptr, 0, nullptr), "executable_describe");
  // Every entry of the table is present in the skeleton.
  CHECK(api->struct_size == sizeof(tg_plugin_api));
  for (size_t at = offsetof(tg_plugin_api, error_code); at < sizeof(tg_plugin_api); at += sizeof(void*)) {
    void* entry = nullptr;
    std::memcpy(&entry, reinterpret_cast<const char*>(api) + at, sizeof(entry));
    CHECK(entry != nullptr);
  }
  api->shutdown(plugin);
  ::dlclose(handle);
}

TEST_CASE("the skeleton's sources carry TODO(null) markers") {
  for (const char* file : {"plugin.c", "device.c", "queue.c", "memory.c", "compile.cpp", "executable.c", "event.c"}) {
    INFO(file);
    std::string out;
    run_command("grep -c 'TODO(null)' " + std::string(TEGULA_SOURCE_DIR) + "/plugins/null/" + file, &out);
    CHECK(std::atoi(out.c_str()) > 0);
  }
}

}  // namespace null_plugin_test
