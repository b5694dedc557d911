// Helpers for the hip plugin's tests: the built plugin (build/lib/libtegula_hip.so) opened
// through its C ABI with the SDK's test harness (plugins/support/testing), kernels lowered for
// a built-in AMD description and compiled offline, and the executable's parts read back.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "core/Files.h"
#include "plugins/hip/Compile.h"
#include "plugins/support/testing/PluginHarness.h"
#include "plugins/support/testing/RunCompare.h"
#include "targets/Target.h"

namespace tegula::hip::testing {

inline std::string plugin_path() { return std::string(TEGULA_BINARY_DIR) + "/lib/libtegula_hip.so"; }

/// The plugin through its C ABI, opened and initialised once per test process.
struct HipPlugin {
  std::unique_ptr<plugin_testing::Plugin> plugin;
  std::string why;

  static HipPlugin& get() {
    static HipPlugin p = open();
    return p;
  }
  static HipPlugin open() {
    HipPlugin p;
    auto opened = plugin_testing::Plugin::open(plugin_path());
    if (!opened.is_ok())
      p.why = opened.status().str();
    else
      p.plugin = std::move(opened).value();
    return p;
  }
};

inline std::string target_json(const std::string& name) {
  auto t = read_file(std::string(TEGULA_SOURCE_DIR) + "/targets/descriptions/" + name + ".json");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

inline TargetDescription target(const std::string& name) {
  auto t = builtin_target(name);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

/// Lower `text` for a built-in target and compile it offline through the plugin's ABI.
inline Result<std::string> compile_for(const std::string& text, const std::string& target_name = "gfx942") {
  HipPlugin& p = HipPlugin::get();
  if (!p.plugin) return error(ErrorCode::Plugin, "hip plugin unusable: " + p.why);
  TG_ASSIGN_OR_RETURN(std::string lowered, plugin_testing::lower_source(text, target(target_name)));
  return p.plugin->compile_offline(target_json(target_name), lowered, {""});
}

/// executable_describe's text: the kernel's AMDGPU assembly with its resource usage.
inline Result<std::string> assembly_for(const std::string& text) {
  TG_ASSIGN_OR_RETURN(std::string blob, compile_for(text));
  return HipPlugin::get().plugin->describe(blob);
}

inline bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

/// The integer after `key` in the assembly's resource-usage lines ("; ScratchSize: 0").
inline int64_t asm_number(const std::string& text, const std::string& key) {
  size_t at = text.find(key);
  if (at == std::string::npos) return -1;
  return std::stoll(text.substr(at + key.size()));
}

}  // namespace tegula::hip::testing
