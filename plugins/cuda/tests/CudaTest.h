// Helpers for the cuda plugin's tests: the built plugin (build/lib/libtegula_cuda.so) opened
// through its C ABI with the SDK's test harness (plugins/support/testing), offline compiles
// and descriptions, and, when a CUDA device is present, kernels run on it and compared with
// the reference interpreter by the harness (plugin_testing::run_and_compare). What is CUDA's
// own: the exact architecture of the device, NVRTC's presence, the code generator's output.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Files.h"
#include "examples/checks/Checks.h"
#include "ir/Analysis.h"
#include "ir/Interpreter.h"
#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "plugins/abi/tegula_plugin.h"
#include "plugins/cuda/DriverApi.h"
#include "plugins/cuda/Nvrtc.h"
#include "plugins/cuda/codegen/CodeGen.h"
#include "plugins/support/testing/OutputCompare.h"
#include "plugins/support/testing/PluginHarness.h"
#include "plugins/support/testing/RunCompare.h"
#include "targets/Target.h"

namespace tegula::cuda::testing {

inline std::string plugin_path() { return std::string(TEGULA_BINARY_DIR) + "/lib/libtegula_cuda.so"; }

using plugin_testing::default_tolerance;
using plugin_testing::Tolerance;

/// The plugin through its C ABI (the SDK's test harness), opened and initialised once per
/// test process.
struct CudaPlugin {
  std::unique_ptr<plugin_testing::Plugin> plugin;  ///< null when unusable
  uint32_t devices = 0;
  std::string why;  ///< why the plugin is unusable, or device_count failed

  static CudaPlugin& get() {
    static CudaPlugin p = open();
    return p;
  }
  static CudaPlugin open() {
    CudaPlugin p;
    auto opened = plugin_testing::Plugin::open(plugin_path());
    if (!opened.is_ok()) {
      p.why = opened.status().str();
      return p;
    }
    p.plugin = std::move(opened).value();
    auto n = p.plugin->device_count();
    if (n.is_ok()) p.devices = *n;
    else p.why = n.status().str();
    return p;
  }
  const tg_plugin_api* api() const { return plugin->api(); }
  tg_plugin* handle() const { return plugin->handle(); }
};

/// The text of a built-in target description file.
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

/// Offline tests need NVRTC (the CUDA toolkit); without it they skip with a message.
#define TG_REQUIRE_NVRTC()                                                                   \
  do {                                                                                       \
    std::string why_;                                                                        \
    if (::tegula::cuda::nvrtc_version(&why_).empty()) {                                      \
      MESSAGE("skipped: " << why_);                                                          \
      return;                                                                                \
    }                                                                                        \
  } while (0)

inline Result<std::string> lower_text(const std::string& text, const TargetDescription& t, const ir::LowerOptions& o = {}) {
  return plugin_testing::lower_source(text, t, o);
}

/// compile_offline for a target description (JSON text).
inline Result<std::string> compile_offline_json(const std::string& lowered, const std::string& json,
                                                const std::string& options = "") {
  CudaPlugin& p = CudaPlugin::get();
  if (!p.plugin) return error(ErrorCode::Plugin, "cuda plugin unusable: " + p.why);
  return p.plugin->compile_offline(json, lowered, {options});
}

/// compile_offline for a built-in target.
inline Result<std::string> compile_offline(const std::string& lowered, const std::string& target_name) {
  return compile_offline_json(lowered, target_json(target_name));
}

inline Result<std::string> describe(const std::string& blob) {
  CudaPlugin& p = CudaPlugin::get();
  if (!p.plugin) return error(ErrorCode::Plugin, "cuda plugin unusable: " + p.why);
  return p.plugin->describe(blob);
}

/// Lower for a target, compile offline, return the PTX text.
inline Result<std::string> ptx_for(const std::string& text, const std::string& target_name, const ir::LowerOptions& o = {}) {
  TG_ASSIGN_OR_RETURN(std::string lowered, lower_text(text, target(target_name), o));
  TG_ASSIGN_OR_RETURN(std::string blob, compile_offline(lowered, target_name));
  return describe(blob);
}

/// What the code generator writes for a kernel lowered for a built-in target: the CUDA C++
/// and the launch facts (shared bytes), without compiling it.
inline Result<cuda::Generated> generate_for(const std::string& text, const std::string& target_name) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(text, "test.tile"));
  TargetDescription t = target(target_name);
  TG_ASSIGN_OR_RETURN(ir::LowerResult r, ir::lower(k, t));
  TG_ASSIGN_OR_RETURN(std::string arch, cuda::arch_for_target(t));
  return cuda::generate_cuda(r.kernel, t, arch);
}

inline std::string example(const std::string& rel) {
  auto t = read_file(std::string(TEGULA_SOURCE_DIR) + "/examples/" + rel);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

inline bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// --- running on a device -----------------------------------------------------------------

/// The first CUDA device, opened once; null when there is none (GPU tests then skip).
struct Gpu {
  std::unique_ptr<plugin_testing::Device> device;  ///< with its queue
  std::string target_name;
  std::string arch;  ///< the exact architecture ("sm_90a")

  /// With TEGULA_CUDA_TEST_OFFLINE=<target> and no device, GPU tests compile their kernels
  /// offline for that target and run only the interpreter (a check of the tests themselves).
  static Gpu* get() {
    static Gpu g = open();
    if (g.device) return &g;
    static Gpu offline;
    if (const char* t = std::getenv("TEGULA_CUDA_TEST_OFFLINE"); t && *t) {
      offline.target_name = t;
      return &offline;
    }
    return nullptr;
  }
  static Gpu open() {
    Gpu g;
    CudaPlugin& p = CudaPlugin::get();
    if (!p.plugin || p.devices == 0) return g;
    auto props = p.plugin->device_properties(0);
    if (!props.is_ok()) return g;
    g.target_name = props->target;
    // The exact architecture the plugin compiles for (as Plugin.cpp derives it).
    if (const Driver* d = load_driver(nullptr)) {
      CUdevice cd = 0;
      int major = 0, minor = 0;
      d->cuDeviceGet(&cd, 0);
      d->cuDeviceGetAttribute(&major, kAttrComputeCapabilityMajor, cd);
      d->cuDeviceGetAttribute(&minor, kAttrComputeCapabilityMinor, cd);
      g.arch = "sm_" + std::to_string(major) + std::to_string(minor) + (major == 9 || major == 10 ? "a" : "");
    }
    auto device = p.plugin->open_device(0);
    if (!device.is_ok()) {
      MESSAGE("cannot open cuda:0: " << device.status().str());
      return g;
    }
    g.device = std::move(device).value();
    return g;
  }
};

/// Skip the rest of a GPU test on machines without a CUDA device.
#define TG_REQUIRE_GPU(gpu)                                                        \
  ::tegula::cuda::testing::Gpu* gpu = ::tegula::cuda::testing::Gpu::get();         \
  if (!gpu) {                                                                      \
    MESSAGE("skipped: no CUDA device (" << ::tegula::cuda::testing::CudaPlugin::get().why << ")"); \
    return;                                                                        \
  }

struct RunOptions {
  ir::LowerOptions lower;
  std::map<std::string, int64_t> bindings;
  uint64_t seed = 1;
  bool use_default_tolerance = true;
  Tolerance tolerance;  ///< used when !use_default_tolerance
  std::string label;
  /// An executable compiled beforehand (Compile.h) for this kernel and these options.
  std::string blob;
  /// Adjust the launch data before both runs (e.g. real values in an atomic_add target).
  std::function<void(examples::LaunchData&)> prepare;
};

/// The harness's run and comparison on the device (plugin_testing::run_and_compare); with no
/// device (TEGULA_CUDA_TEST_OFFLINE), the interpreter's run and an offline compile.
inline Status run_and_compare(Gpu& g, const std::string& text, const RunOptions& o) {
  plugin_testing::RunSpec spec;
  spec.source = text;
  spec.bindings = o.bindings;
  spec.seed = o.seed;
  spec.lower = o.lower;
  spec.executable = o.blob;
  if (!o.use_default_tolerance) spec.tolerance = o.tolerance;
  if (o.prepare) spec.prepare = [&o](const ir::Kernel&, examples::LaunchData& d) { o.prepare(d); };
  TargetDescription t = target(g.target_name);
  if (g.device) return plugin_testing::run_and_compare(*g.device, t, spec);
  TG_ASSIGN_OR_RETURN(std::string lowered, lower_text(text, t, o.lower));
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(text, "test.tile"));
  TG_ASSIGN_OR_RETURN(examples::LaunchData data, plugin_testing::make_data(k, spec));
  TG_RETURN_IF_ERROR(plugin_testing::run_reference(k, data));
  return compile_offline(lowered, g.target_name).status();
}

}  // namespace tegula::cuda::testing
