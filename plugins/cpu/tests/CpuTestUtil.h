/// \file
/// Helpers for the cpu plugin's tests: a runtime that loads only the cpu plugin from the
/// build tree, runs of a kernel on cpu:0 and on the reference interpreter with the same
/// inputs, compared as every backend's tests compare (plugins/support/testing/OutputCompare.h:
/// bit-exact, with NaN equal to NaN, or within a tolerance). Outputs start as 0xff bytes (a
/// NaN in every float encoding) on both sides, and every run checks that the kernel left its
/// inputs alone. For what the runtime API does not reach (executable bytes,
/// executable_describe, error codes exactly as the plugin returns them), CpuPlugin opens the
/// plugin through its C ABI with the SDK's test harness.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Random.h"
#include "examples/checks/Checks.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "plugins/support/testing/OutputCompare.h"
#include "plugins/support/testing/PluginHarness.h"
#include "plugins/support/testing/RunCompare.h"
#include "tegula/tegula.hpp"

namespace tegula::cpu::testing {

inline std::string cpu_manifest() { return std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/cpu.json"; }

inline Result<Runtime> open_cpu_runtime(const std::string& cache_dir = "off") {
  RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{cpu_manifest()};
  o.cache_dir = cache_dir;
  o.ignore_environment = true;
  return Runtime::open(o);
}

/// One runtime per test executable (opened on first use, closed at exit).
inline Runtime& runtime() {
  static Runtime rt = [] {
    Result<Runtime> r = open_cpu_runtime();
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    return std::move(r).value();
  }();
  return rt;
}

inline Device cpu_device() {
  Result<Device> d = runtime().find_device("cpu:0");
  REQUIRE_MESSAGE(d.is_ok(), d.status().str());
  return *d;
}

inline ir::Kernel parse(const std::string& text) {
  Result<ir::Kernel> k = ir::parse_and_verify(text, "test.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return std::move(k).value();
}

/// Random inputs as the examples make them (floats in [-1, 1), small integers), outputs
/// poisoned.
inline examples::LaunchData make_data(const ir::Kernel& k, const std::map<std::string, int64_t>& bind, uint64_t seed) {
  Result<examples::LaunchData> d = examples::make_launch_data(k, bind, seed);
  REQUIRE_MESSAGE(d.is_ok(), d.status().str());
  return std::move(d).value();
}

/// Overwrite every element of a tensor with values from `gen(index)`.
template <typename F>
void fill_tensor(examples::HostTensor& t, F gen) {
  size_t esize = dtype_size(t.dtype);
  for (int64_t i = 0; i < t.numel(); ++i) store_element(t.dtype, gen(i), t.bytes.data() + size_t(i) * esize);
}

/// A kernel compiled on cpu:0, kept for the rest of the test executable so that runs of the
/// same text at other shapes do not compile again.
inline Result<Kernel*> compiled(const std::string& text, const std::string& options) {
  (void)runtime();  // constructed first, so destroyed after the kernels below
  static std::map<std::string, Kernel> kernels;
  std::string key = options + "\n--\n" + text;
  auto it = kernels.find(key);
  if (it != kernels.end()) return &it->second;
  CompileOptions co;
  co.plugin_options = options;
  TG_ASSIGN_OR_RETURN(Kernel kernel, cpu_device().compile(text, co));
  return &(kernels[key] = std::move(kernel));
}

/// Compile on cpu:0, copy every tensor in, launch, read every tensor back into `data`.
inline Status run_cpu(const std::string& text, const ir::Kernel& k, examples::LaunchData& data,
                      const std::string& options = "") {
  Device dev = cpu_device();
  TG_ASSIGN_OR_RETURN(Kernel* compiled_kernel, compiled(text, options));
  Kernel& kernel = *compiled_kernel;
  std::vector<Buffer> buffers(k.params.size());
  std::vector<Arg> args;
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (!p.is_tensor) {
      args.push_back(dtype_is_float(p.dtype) ? Arg::number(data.scalars[i]) : Arg::integer(int64_t(data.scalars[i])));
      continue;
    }
    std::vector<uint8_t>& bytes = data.tensors[i].bytes;
    TG_ASSIGN_OR_RETURN(buffers[i], dev.alloc(bytes.size()));
    TG_RETURN_IF_ERROR(buffers[i].write(bytes));
    args.push_back(Arg::tensor(buffers[i]));
  }
  for (int64_t s : data.symbols) args.push_back(Arg::integer(s));
  TG_RETURN_IF_ERROR(kernel.launch(args));
  TG_RETURN_IF_ERROR(dev.synchronize());
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (!k.params[i].is_tensor) continue;
    std::vector<uint8_t>& bytes = data.tensors[i].bytes;
    TG_RETURN_IF_ERROR(buffers[i].read(bytes.data(), bytes.size()));
  }
  return Status::ok();
}

using plugin_testing::compare_tensor;
using plugin_testing::run_reference;
using plugin_testing::same_value;
using plugin_testing::Tolerance;
using plugin_testing::ulps;

/// Run `text` on cpu:0 and on the reference interpreter with the same inputs; every output
/// must match within `tol` and every input must come back unchanged.
inline void check_against_reference(const std::string& text, examples::LaunchData data, Tolerance tol,
                                    const std::string& options = "") {
  ir::Kernel k = parse(text);
  examples::LaunchData want = data;
  examples::LaunchData before = data;
  Status ref = run_reference(k, want);
  REQUIRE_MESSAGE(ref.is_ok(), ref.str());
  Status got = run_cpu(text, k, data, options);
  REQUIRE_MESSAGE(got.is_ok(), got.str());
  Status same = plugin_testing::compare_launch(k, before, data, want, tol);
  CHECK_MESSAGE(same.is_ok(), same.str());
}

inline void check_against_reference(const std::string& text, const std::map<std::string, int64_t>& bind, uint64_t seed,
                                    Tolerance tol, const std::string& options = "") {
  ir::Kernel k = parse(text);
  check_against_reference(text, make_data(k, bind, seed), tol, options);
}

inline std::string cpu_library() { return std::string(TEGULA_BINARY_DIR) + "/lib/libtegula_cpu.so"; }

/// The cpu plugin through its C ABI (plugin_testing::Plugin), device 0 open.
struct CpuPlugin {
  std::unique_ptr<plugin_testing::Plugin> plugin;
  std::unique_ptr<plugin_testing::Device> device;

  CpuPlugin() {
    auto p = plugin_testing::Plugin::open(cpu_library());
    REQUIRE_MESSAGE(p.is_ok(), p.status().str());
    plugin = std::move(p).value();
    auto d = plugin->open_device(0);
    REQUIRE_MESSAGE(d.is_ok(), d.status().str());
    device = std::move(d).value();
  }
  /// The raw table, for calls made wrong on purpose.
  const tg_plugin_api* api() const { return plugin->api(); }

  /// The device's own target description.
  TargetDescription target() const {
    Result<TargetDescription> t = plugin->device_target(0);
    REQUIRE_MESSAGE(t.is_ok(), t.status().str());
    return std::move(t).value();
  }

  /// Lowered IR text of a source kernel, as the runtime would hand it over.
  std::string lowered(const std::string& source) const {
    Result<std::string> l = plugin_testing::lower_source(source, target());
    REQUIRE_MESSAGE(l.is_ok(), l.status().str());
    return *l;
  }

  /// compile() of IR text that must compile.
  std::string compiled(const std::string& lowered_text) const {
    Result<std::string> blob = device->compile(lowered_text);
    REQUIRE_MESSAGE(blob.is_ok(), blob.status().str());
    return *blob;
  }
};

/// Replace every `{KEY}` in a template.
inline std::string subst(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    std::string pattern = "{" + key + "}";
    for (size_t pos = text.find(pattern); pos != std::string::npos; pos = text.find(pattern, pos + value.size()))
      text.replace(pos, pattern.size(), value);
  }
  return text;
}

inline const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> v = {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::E4M3,
                                       DType::E5M2, DType::I8, DType::U8, DType::I32, DType::Bool};
  return v;
}

}  // namespace tegula::cpu::testing
