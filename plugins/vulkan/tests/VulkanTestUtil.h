// Helpers for tests on a Vulkan device through the runtime: the device (lavapipe pinned
// when installed, unless TEGULA_VULKAN_TEST_ICD names another ICD json or VK_ICD_FILENAMES /
// VK_DRIVER_FILES is already set), and run_compare, which runs a kernel on the device and on
// the reference interpreter from the same inputs (outputs poisoned with 0xff bytes, a NaN in
// every float encoding), checks that inputs come back unchanged, compares the outputs within
// a tolerance (the comparison every backend's tests share, plugins/support/testing), and
// validates the generated module with spirv-val. VulkanPlugin: the plugin through its C ABI
// (the SDK's test harness), for entry points the runtime does not expose one to one
// (compile_offline, executable_describe, raw blobs) and for machines without a loader.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <sys/stat.h>

#include "examples/checks/Checks.h"
#include "ir/Interpreter.h"
#include "ir/Printer.h"
#include "plugins/support/testing/OutputCompare.h"
#include "plugins/support/testing/PluginHarness.h"
#include "plugins/vulkan/tests/CodegenTestUtil.h"
#include "tegula/tegula.hpp"

namespace tegula::vulkan::testing {

inline void pin_icd() {
  static bool done = false;
  if (done) return;
  done = true;
  if (const char* icd = std::getenv("TEGULA_VULKAN_TEST_ICD")) {
    setenv("VK_ICD_FILENAMES", icd, 1);
    setenv("VK_DRIVER_FILES", icd, 1);
    return;
  }
  if (std::getenv("VK_ICD_FILENAMES") || std::getenv("VK_DRIVER_FILES")) return;
  const char* lvp = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
  struct stat st;
  if (stat(lvp, &st) == 0) {
    setenv("VK_ICD_FILENAMES", lvp, 1);
    setenv("VK_DRIVER_FILES", lvp, 1);
  }
}

inline std::string plugin_manifest() { return std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/vulkan.json"; }
inline std::string plugin_library() { return std::string(TEGULA_BINARY_DIR) + "/lib/libtegula_vulkan.so"; }

/// The runtime with only the vulkan plugin, and its first device (if any).
struct Env {
  std::optional<Runtime> rt;
  std::optional<Device> dev;
  std::string why;
  std::optional<TargetDescription> target;
};

inline Env& env() {
  static Env e = [] {
    pin_icd();
    Env out;
    RuntimeOptions o;
    o.manifest_paths = std::vector<std::string>{plugin_manifest()};
    o.cache_dir = "off";
    o.ignore_environment = true;
    auto rt = Runtime::open(o);
    if (!rt.is_ok()) {
      out.why = rt.status().str();
      return out;
    }
    out.rt.emplace(std::move(*rt));
    auto d = out.rt->find_device("vulkan");
    if (!d.is_ok()) {
      out.why = d.status().str();
      return out;
    }
    out.dev = *d;
    auto json = d->target_json();
    if (json.is_ok()) {
      auto t = parse_target(*json, "device");
      if (t.is_ok()) out.target = *t;
    }
    return out;
  }();
  return e;
}

/// Whether a missing device is a failure: when TEGULA_VULKAN_TEST_ICD names a driver, the run
/// is meant for that device and must not pass by skipping.
inline bool device_required() { return std::getenv("TEGULA_VULKAN_TEST_ICD") != nullptr; }

/// Skip the rest of a test (with a message) when there is no Vulkan device, or fail when one
/// is required.
#define TG_REQUIRE_VULKAN_DEVICE()                                                        \
  do {                                                                                    \
    if (!::tegula::vulkan::testing::env().dev) {                                          \
      if (::tegula::vulkan::testing::device_required())                                   \
        FAIL("no Vulkan device for TEGULA_VULKAN_TEST_ICD: " << ::tegula::vulkan::testing::env().why); \
      MESSAGE("no Vulkan device: " << ::tegula::vulkan::testing::env().why);               \
      return;                                                                             \
    }                                                                                     \
  } while (0)

using plugin_testing::Tolerance;
using plugin_testing::ulp_tolerance;

/// The vulkan plugin loaded directly through its C ABI (no runtime).
struct VulkanPlugin {
  std::unique_ptr<plugin_testing::Plugin> plugin;
  bool simulated_absence = false;  ///< the test hid the loader or the drivers on purpose

  /// Load and init; `loader` overrides the Vulkan loader path (TEGULA_VULKAN_LOADER).
  explicit VulkanPlugin(const char* loader = nullptr) {
    pin_icd();
    if (loader) setenv("TEGULA_VULKAN_LOADER", loader, 1);
    const char* icd = std::getenv("VK_ICD_FILENAMES");
    simulated_absence = loader || (icd && std::string(icd).find("/nonexistent") != std::string::npos);
    auto p = plugin_testing::Plugin::open(plugin_library());
    if (loader) unsetenv("TEGULA_VULKAN_LOADER");
    REQUIRE_MESSAGE(p.is_ok(), p.status().str());
    plugin = std::move(p).value();
  }
  const tg_plugin_api* api() const { return plugin->api(); }
  tg_plugin* handle() const { return plugin->handle(); }

  /// The code of an error (TG_OK for success), releasing it; its message is logged.
  tg_status_code code(tg_error* e) const {
    tg_status_code c = plugin->code(e);
    if (c != TG_OK) MESSAGE(plugin_testing::last_message());
    return c;
  }

  uint32_t devices() const {
    auto n = plugin->device_count();
    REQUIRE_MESSAGE(n.is_ok(), n.status().str());
    if (*n == 0 && device_required() && !simulated_absence) FAIL("no Vulkan device for TEGULA_VULKAN_TEST_ICD");
    return *n;
  }

  std::string target_json(uint32_t index) const {
    auto json = plugin->device_target_json(index);
    REQUIRE_MESSAGE(json.is_ok(), json.status().str());
    return *json;
  }

  /// compile_offline for a description; the blob bytes (empty on error, with *code set).
  std::string compile_offline(const std::string& target_json, const std::string& lowered,
                              tg_status_code* code_out = nullptr) const {
    auto blob = plugin->compile_offline(target_json, lowered);
    if (!blob.is_ok()) MESSAGE(blob.status().str());
    if (code_out) *code_out = blob.is_ok() ? TG_OK : plugin_testing::last_code();
    return blob.is_ok() ? *blob : std::string();
  }
};

/// A kernel lowered for a description, as text.
inline std::string lowered_text(const std::string& text, const TargetDescription& t) {
  auto k = lower_for(text, t);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return ir::print_kernel(*k);
}

struct RunSpec {
  std::string text;
  std::string bindings;
  uint64_t seed = 1;
  Tolerance tol;
  /// Edit the launch data (custom inputs, initial outputs) before the runs.
  std::function<void(const ir::Kernel&, examples::LaunchData&)> prepare;
  bool validate = true;
  /// Also check the device's outputs against the kernel's direct computation (examples).
  bool direct = false;
  uint32_t raster_group = 0;  ///< CompileOptions::raster_group
};

/// "" when the device matches the interpreter, else what went wrong.
inline std::string run_compare(const RunSpec& spec) {
  Env& e = env();
  auto k = ir::parse_and_verify(spec.text, "test.tile");
  if (!k.is_ok()) return "parse: " + k.status().str();
  auto b = examples::parse_bindings(spec.bindings);
  if (!b.is_ok()) return b.status().str();
  auto data = examples::make_launch_data(*k, *b, spec.seed);
  if (!data.is_ok()) return data.status().str();
  if (spec.prepare) spec.prepare(*k, *data);
  examples::LaunchData expected = *data;
  std::vector<ir::Arg> iargs = examples::interpreter_args(*k, expected);
  Status st = ir::interpret(*k, iargs);
  if (!st.is_ok()) return "interpreter: " + st.str();

  if (spec.validate && e.target) {
    auto shader = generate_for(spec.text, *e.target);
    if (!shader.is_ok()) return "generate: " + shader.status().str();
    std::string verdict = spirv_val(shader->words);
    if (!verdict.empty() && verdict != "skip") return "spirv-val: " + verdict;
  }
  CompileOptions co;
  co.use_cache = false;
  co.raster_group = spec.raster_group;
  auto kernel = e.dev->compile(spec.text, co);
  if (!kernel.is_ok()) return "compile: " + kernel.status().str();
  std::vector<Buffer> buffers;
  std::vector<Arg> args;
  for (size_t i = 0; i < k->params.size(); ++i) {
    const ir::Param& p = k->params[i];
    if (!p.is_tensor) {
      args.push_back(dtype_is_float(p.dtype) ? Arg::number(data->scalars[i]) : Arg::integer(int64_t(data->scalars[i])));
      continue;
    }
    const auto& bytes = data->tensors[i].bytes;
    auto buf = e.dev->alloc(bytes.size());
    if (!buf.is_ok()) return "alloc: " + buf.status().str();
    if (!bytes.empty()) {
      Status w = buf->write(bytes.data(), bytes.size());
      if (!w.is_ok()) return "write: " + w.str();
    }
    buffers.push_back(std::move(*buf));
    args.push_back(Arg::tensor(buffers.back()));
  }
  for (int64_t s : data->symbols) args.push_back(Arg::integer(s));
  Status l = kernel->launch(args);
  if (!l.is_ok()) return "launch: " + l.str();
  Status sy = e.dev->synchronize();
  if (!sy.is_ok()) return "synchronize: " + sy.str();
  size_t bi = 0;
  examples::LaunchData device_data = *data;
  for (size_t i = 0; i < k->params.size(); ++i) {
    const ir::Param& p = k->params[i];
    if (!p.is_tensor) continue;
    const Buffer& buf = buffers[bi++];
    std::vector<uint8_t> got(data->tensors[i].bytes.size());
    if (!got.empty()) {
      Status r = buf.read(got.data(), got.size());
      if (!r.is_ok()) return "read: " + r.str();
    }
    device_data.tensors[i].bytes = got;
  }
  Status same = plugin_testing::compare_launch(*k, *data, device_data, expected, spec.tol);
  if (!same.is_ok()) return same.message();
  if (spec.direct) {
    auto check = examples::check_outputs(*k, device_data);
    if (!check.is_ok()) return "direct computation: " + check.status().str();
    if (!check->passed) return "direct computation: " + examples::format_check(*check);
  }
  return "";
}

}  // namespace tegula::vulkan::testing
