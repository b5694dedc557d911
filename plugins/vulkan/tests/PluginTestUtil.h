// The vulkan plugin loaded directly through its ABI (no runtime), for tests of entry points
// the runtime does not expose one to one (compile_offline, executable_describe, raw blobs)
// and of what happens on a machine without a Vulkan loader.
#pragma once

#include <dlfcn.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "ir/Lower.h"
#include "ir/Printer.h"
#include "plugins/abi/tegula_plugin.h"
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace tegula::vulkan::testing {

struct Plugin {
  void* lib = nullptr;
  const tg_plugin_api* api = nullptr;
  tg_plugin* plugin = nullptr;
  bool simulated_absence = false;  ///< the test hid the loader or the drivers on purpose

  /// Load and init; `loader` overrides the Vulkan loader path (TEGULA_VULKAN_LOADER).
  explicit Plugin(const char* loader = nullptr) {
    pin_icd();
    if (loader) setenv("TEGULA_VULKAN_LOADER", loader, 1);
    const char* icd = std::getenv("VK_ICD_FILENAMES");
    simulated_absence = loader || (icd && std::string(icd).find("/nonexistent") != std::string::npos);
    lib = dlopen(plugin_library().c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE_MESSAGE(lib, dlerror());
    auto query = reinterpret_cast<tg_plugin_query_fn>(dlsym(lib, TG_PLUGIN_QUERY_SYMBOL));
    REQUIRE(bool(query));
    const char* refusal = nullptr;
    api = query(TG_ABI_VERSION_1, TG_ABI_VERSION_1, &refusal);
    REQUIRE(api);
    tg_host_info host;
    std::memset(&host, 0, sizeof(host));
    host.struct_size = sizeof(host);
    host.abi_version = TG_ABI_VERSION_1;
    host.host_version = "test";
    tg_error* e = api->init(&host, &plugin);
    REQUIRE_MESSAGE(!e, (e ? api->error_message(e) : ""));
    if (loader) unsetenv("TEGULA_VULKAN_LOADER");
  }
  ~Plugin() {
    if (plugin) api->shutdown(plugin);
  }

  /// The code of an error (TG_OK for success), releasing it.
  tg_status_code code(tg_error* e) const {
    if (!e) return TG_OK;
    tg_status_code c = api->error_code(e);
    MESSAGE(api->error_message(e));
    api->error_destroy(e);
    return c;
  }

  uint32_t devices() const {
    uint32_t n = 99;
    tg_error* e = api->device_count(plugin, &n);
    REQUIRE(!e);
    if (n == 0 && device_required() && !simulated_absence) FAIL("no Vulkan device for TEGULA_VULKAN_TEST_ICD");
    return n;
  }

  std::string target_json(uint32_t index) const {
    tg_target_description t;
    std::memset(&t, 0, sizeof(t));
    t.struct_size = sizeof(t);
    tg_error* e = api->device_target(plugin, index, &t);
    REQUIRE(!e);
    return std::string(t.data, t.size);
  }

  /// compile_offline for a description; the blob bytes (empty on error, with *code set).
  std::string compile_offline(const std::string& target_json, const std::string& lowered, tg_status_code* code_out = nullptr) const {
    tg_target_description t;
    std::memset(&t, 0, sizeof(t));
    t.struct_size = sizeof(t);
    t.format = TG_TARGET_FORMAT_JSON_V1;
    t.data = target_json.data();
    t.size = target_json.size();
    tg_compile_request r;
    std::memset(&r, 0, sizeof(r));
    r.struct_size = sizeof(r);
    r.ir_format = TG_IR_FORMAT_LOWERED_V1;
    r.ir_data = lowered.data();
    r.ir_size = lowered.size();
    r.options = "";
    tg_blob blob;
    std::memset(&blob, 0, sizeof(blob));
    blob.struct_size = sizeof(blob);
    tg_status_code c = code(api->compile_offline(plugin, &t, &r, &blob));
    if (code_out) *code_out = c;
    if (c != TG_OK) return {};
    std::string bytes(static_cast<const char*>(blob.data), blob.size);
    api->blob_release(&blob);
    return bytes;
  }
};

/// A kernel lowered for a description, as text.
inline std::string lowered_text(const std::string& text, const TargetDescription& t) {
  auto k = lower_for(text, t);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return ir::print_kernel(*k);
}

}  // namespace tegula::vulkan::testing
