/// \file
/// Direct access to the cpu plugin through its C ABI (dlopen of the build tree's library),
/// for what the runtime API does not reach: executable bytes, executable_describe, and
/// error codes exactly as the plugin returns them.
#pragma once

#include <dlfcn.h>
#include <doctest/doctest.h>

#include <string>

#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "plugins/abi/tegula_plugin.h"
#include "targets/Target.h"

namespace tegula::cpu::testing {

class Plugin {
public:
  Plugin() {
    std::string path = std::string(TEGULA_BINARY_DIR) + "/lib/libtegula_cpu.so";
    lib_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE_MESSAGE(lib_, dlerror());
    auto query = reinterpret_cast<tg_plugin_query_fn>(dlsym(lib_, TG_PLUGIN_QUERY_SYMBOL));
    REQUIRE(bool(query));
    const char* refusal = nullptr;
    api = query(TG_ABI_VERSION_1, TG_ABI_VERSION_1, &refusal);
    REQUIRE(api != nullptr);
    tg_host_info host{};
    host.struct_size = sizeof host;
    host.abi_version = TG_ABI_VERSION_1;
    host.host_version = "test";
    REQUIRE(ok(api->init(&host, &plugin)));
    REQUIRE(ok(api->device_open(plugin, 0, &device)));
  }
  ~Plugin() {
    api->shutdown(plugin);  // frees the device and everything on it
    // The library stays loaded (as the runtime keeps it): its code may be on the stack of
    // a static destructor elsewhere.
  }
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  /// Consume an error: true when there was none; otherwise remember its code and message.
  bool ok(tg_error* e) {
    last_code = e ? api->error_code(e) : TG_OK;
    last_message = e ? api->error_message(e) : "";
    if (e) api->error_destroy(e);
    return e == nullptr;
  }

  /// The device's own target description.
  TargetDescription target() {
    tg_target_description t{};
    t.struct_size = sizeof t;
    REQUIRE(ok(api->device_target(plugin, 0, &t)));
    Result<TargetDescription> parsed = parse_target(std::string(t.data, t.size), "cpu device_target");
    REQUIRE_MESSAGE(parsed.is_ok(), parsed.status().str());
    return std::move(parsed).value();
  }

  /// Lowered IR text of a source kernel, as the runtime would hand it over.
  std::string lowered(const std::string& source) {
    Result<ir::Kernel> k = ir::parse_and_verify(source, "test.tile");
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    TargetDescription t = target();
    Result<ir::LowerResult> l = ir::lower(*k, t);
    REQUIRE_MESSAGE(l.is_ok(), l.status().str());
    return ir::print_kernel(l->kernel);
  }

  /// compile(); the blob's bytes, or "" with last_code set.
  std::string compile(const std::string& lowered_text, const char* options = "",
                      const char* format = TG_IR_FORMAT_LOWERED_V1) {
    tg_compile_request r{};
    r.struct_size = sizeof r;
    r.ir_format = format;
    r.ir_data = lowered_text.data();
    r.ir_size = lowered_text.size();
    r.options = options;
    tg_blob blob{};
    blob.struct_size = sizeof blob;
    if (!ok(api->compile(device, &r, &blob))) return "";
    std::string bytes(static_cast<const char*>(blob.data), blob.size);
    api->blob_release(&blob);
    return bytes;
  }

  /// executable_load(); true when it loaded (and was freed again).
  bool load(const std::string& bytes) {
    tg_executable* exe = nullptr;
    if (!ok(api->executable_load(device, bytes.data(), bytes.size(), &exe))) return false;
    api->executable_free(exe);
    return true;
  }

  std::string describe(const std::string& bytes) {
    tg_blob text{};
    text.struct_size = sizeof text;
    if (!ok(api->executable_describe(plugin, bytes.data(), bytes.size(), &text))) return "";
    std::string out(static_cast<const char*>(text.data), text.size);
    api->blob_release(&text);
    return out;
  }

  const tg_plugin_api* api = nullptr;
  tg_plugin* plugin = nullptr;
  tg_device* device = nullptr;
  tg_status_code last_code = TG_OK;
  std::string last_message;

private:
  void* lib_ = nullptr;
};

}  // namespace tegula::cpu::testing
