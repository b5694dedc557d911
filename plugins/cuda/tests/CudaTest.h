// Helpers for the cuda plugin's tests: the built plugin (build/lib/libtegula_cuda.so) opened
// through its one exported symbol, offline compiles and descriptions, and, when a CUDA device
// is present, kernels run on it and compared with the reference interpreter on the same
// random inputs (outputs poisoned with 0xff bytes on both sides, inputs checked unchanged).
#pragma once

#include <dlfcn.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
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
#include "targets/Target.h"

namespace tegula::cuda::testing {

inline std::string plugin_path() { return std::string(TEGULA_BINARY_DIR) + "/lib/libtegula_cuda.so"; }

/// The plugin, opened and initialised once per test process.
struct Plugin {
  const tg_plugin_api* api = nullptr;
  tg_plugin* plugin = nullptr;
  uint32_t devices = 0;
  std::string why;  ///< why the plugin is unusable, when api is null

  static Plugin& get() {
    static Plugin p = open();
    return p;
  }

  static Plugin open() {
    Plugin p;
    void* lib = dlopen(plugin_path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      p.why = dlerror();
      return p;
    }
    auto query = reinterpret_cast<tg_plugin_query_fn>(dlsym(lib, TG_PLUGIN_QUERY_SYMBOL));
    if (!query) {
      p.why = "no tg_plugin_query";
      return p;
    }
    const char* refusal = nullptr;
    p.api = query(TG_ABI_VERSION_1, TG_ABI_VERSION_1, &refusal);
    if (!p.api) {
      p.why = refusal ? refusal : "refused";
      return p;
    }
    tg_host_info host{};
    host.struct_size = sizeof host;
    host.abi_version = TG_ABI_VERSION_1;
    host.host_version = "test";
    if (tg_error* e = p.api->init(&host, &p.plugin)) {
      p.why = take(p.api, e);
      p.api = nullptr;
      return p;
    }
    tg_error* e = p.api->device_count(p.plugin, &p.devices);
    if (e) p.why = take(p.api, e);
    return p;
  }

  /// The message of an error, which is released.
  static std::string take(const tg_plugin_api* api, tg_error* e) {
    if (!e) return "";
    std::string m = api->error_message(e);
    api->error_destroy(e);
    return m;
  }
  std::string take(tg_error* e) const { return take(api, e); }

  static std::string blob_bytes(const tg_plugin_api* api, tg_blob& b) {
    std::string s(static_cast<const char*>(b.data), b.size);
    api->blob_release(&b);
    return s;
  }
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
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(text, "test.tile"));
  TG_ASSIGN_OR_RETURN(ir::LowerResult r, ir::lower(k, t, o));
  return ir::print_kernel(r.kernel);
}

/// compile_offline for a target description (JSON text); the error message on failure.
inline Result<std::string> compile_offline_json(const std::string& lowered, const std::string& json) {
  Plugin& p = Plugin::get();
  if (!p.api) return error(ErrorCode::Plugin, "cuda plugin unusable: " + p.why);
  tg_target_description t{};
  t.struct_size = sizeof t;
  t.format = TG_TARGET_FORMAT_JSON_V1;
  t.data = json.data();
  t.size = json.size();
  tg_compile_request r{};
  r.struct_size = sizeof r;
  r.ir_format = TG_IR_FORMAT_LOWERED_V1;
  r.ir_data = lowered.data();
  r.ir_size = lowered.size();
  r.options = "";
  tg_blob b{};
  b.struct_size = sizeof b;
  if (tg_error* e = p.api->compile_offline(p.plugin, &t, &r, &b)) return error(ErrorCode::Plugin, p.take(e));
  return Plugin::blob_bytes(p.api, b);
}

/// compile_offline for a built-in target.
inline Result<std::string> compile_offline(const std::string& lowered, const std::string& target_name) {
  return compile_offline_json(lowered, target_json(target_name));
}

inline Result<std::string> describe(const std::string& blob) {
  Plugin& p = Plugin::get();
  tg_blob b{};
  b.struct_size = sizeof b;
  if (tg_error* e = p.api->executable_describe(p.plugin, blob.data(), blob.size(), &b)) return error(ErrorCode::Plugin, p.take(e));
  return Plugin::blob_bytes(p.api, b);
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
  tg_device* device = nullptr;
  tg_queue* queue = nullptr;
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
    Plugin& p = Plugin::get();
    if (!p.api || p.devices == 0) return g;
    tg_device_properties props{};
    props.struct_size = sizeof props;
    if (p.api->device_properties(p.plugin, 0, &props)) return g;
    g.target_name = props.target;
    // The exact architecture the plugin compiles for (as Plugin.cpp derives it).
    if (const Driver* d = load_driver(nullptr)) {
      CUdevice cd = 0;
      int major = 0, minor = 0;
      d->cuDeviceGet(&cd, 0);
      d->cuDeviceGetAttribute(&major, kAttrComputeCapabilityMajor, cd);
      d->cuDeviceGetAttribute(&minor, kAttrComputeCapabilityMinor, cd);
      g.arch = "sm_" + std::to_string(major) + std::to_string(minor) + (major == 9 || major == 10 ? "a" : "");
    }
    if (tg_error* e = p.api->device_open(p.plugin, 0, &g.device)) {
      MESSAGE("cannot open cuda:0: " << p.take(e));
      g.device = nullptr;
      return g;
    }
    if (tg_error* e = p.api->queue_create(g.device, &g.queue)) {
      MESSAGE("cannot create a queue: " << p.take(e));
      g.device = nullptr;
    }
    return g;
  }
};

/// Skip the rest of a GPU test on machines without a CUDA device.
#define TG_REQUIRE_GPU(gpu)                                                        \
  ::tegula::cuda::testing::Gpu* gpu = ::tegula::cuda::testing::Gpu::get();         \
  if (!gpu) {                                                                      \
    MESSAGE("skipped: no CUDA device (" << ::tegula::cuda::testing::Plugin::get().why << ")"); \
    return;                                                                        \
  }

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

/// Tolerance for results stored as `d` after float32 arithmetic (one rounding more than the
/// float64 interpreter).
inline Tolerance default_tolerance(DType d) {
  switch (d) {
    case DType::F64: return {1e-12, 1e-12};
    case DType::F32: return {2e-5, 2e-5};
    case DType::TF32: return {2e-3, 1e-5};
    case DType::F16: return {2e-3, 1e-4};
    case DType::BF16: return {1.6e-2, 1e-3};
    case DType::E4M3: return {0.13, 0.002};
    case DType::E5M2: return {0.26, 2e-5};
    default: return {0, 0.5};  // integers and bool: exact (rounding of .5 ties aside)
  }
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

inline Status run_and_compare(Gpu& g, const std::string& text, const RunOptions& o) {
  Plugin& p = Plugin::get();
  const tg_plugin_api& api = *p.api;
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(text, "test.tile"));
  TargetDescription t = target(g.target_name);
  TG_ASSIGN_OR_RETURN(ir::LowerResult lowered, ir::lower(k, t, o.lower));
  std::string lowered_text = ir::print_kernel(lowered.kernel);
  TG_ASSIGN_OR_RETURN(examples::LaunchData data, examples::make_launch_data(k, o.bindings, o.seed));
  if (o.prepare) o.prepare(data);
  examples::LaunchData ref = data;
  std::vector<ir::Arg> iargs = examples::interpreter_args(k, ref);
  TG_RETURN_IF_ERROR(ir::interpret(k, iargs).with_context("reference interpreter"));
  if (!g.device) return compile_offline(lowered_text, g.target_name).status();

  tg_compile_request req{};
  req.struct_size = sizeof req;
  req.ir_format = TG_IR_FORMAT_LOWERED_V1;
  req.ir_data = lowered_text.data();
  req.ir_size = lowered_text.size();
  req.options = "";
  tg_executable* exe = nullptr;
  if (!o.blob.empty()) {
    if (tg_error* e = api.executable_load(g.device, o.blob.data(), o.blob.size(), &exe)) return error(ErrorCode::Plugin, "executable_load: " + p.take(e));
  } else {
    tg_blob blob{};
    blob.struct_size = sizeof blob;
    if (tg_error* e = api.compile(g.device, &req, &blob)) return error(ErrorCode::Plugin, "compile: " + p.take(e));
    tg_error* e = api.executable_load(g.device, blob.data, blob.size, &exe);
    api.blob_release(&blob);
    if (e) return error(ErrorCode::Plugin, "executable_load: " + p.take(e));
  }

  std::vector<tg_buffer*> buffers(k.params.size(), nullptr);
  Status status;
  auto fail = [&](const std::string& m) {
    if (status.is_ok()) status = error(ErrorCode::Device, m);
  };
  std::vector<tg_launch_arg> args;
  for (size_t i = 0; i < k.params.size() && status.is_ok(); ++i) {
    tg_launch_arg a{};
    a.struct_size = sizeof a;
    if (k.params[i].is_tensor) {
      const auto& bytes = data.tensors[i].bytes;
      if (tg_error* err = api.buffer_alloc(g.device, bytes.size(), &buffers[i])) fail("buffer_alloc: " + p.take(err));
      else if (tg_error* err2 = api.copy_h2d(g.queue, buffers[i], 0, bytes.data(), bytes.size())) fail("copy_h2d: " + p.take(err2));
      a.kind = TG_ARG_BUFFER;
      a.buffer = buffers[i];
    } else {
      bool is_float = dtype_is_float(k.params[i].dtype);
      a.kind = is_float ? TG_ARG_F64 : TG_ARG_I64;
      a.f64 = data.scalars[i];
      a.i64 = int64_t(data.scalars[i]);
    }
    args.push_back(a);
  }
  for (int64_t s : data.symbols) {
    tg_launch_arg a{};
    a.struct_size = sizeof a;
    a.kind = TG_ARG_I64;
    a.i64 = s;
    args.push_back(a);
  }
  if (status.is_ok()) {
    std::vector<ir::Arg> gargs = examples::interpreter_args(k, data);
    auto grid = ir::launch_grid(k, gargs);
    if (!grid.is_ok()) fail(grid.status().str());
    tg_launch_params lp{};
    lp.struct_size = sizeof lp;
    for (int d = 0; d < 3 && status.is_ok(); ++d) lp.grid[d] = d < int(grid->size()) ? uint32_t((*grid)[size_t(d)]) : 1;
    lp.args = args.data();
    lp.arg_count = args.size();
    if (status.is_ok())
      if (tg_error* err = api.launch(g.queue, exe, &lp)) fail("launch: " + p.take(err));
    if (status.is_ok())
      if (tg_error* err = api.queue_synchronize(g.queue)) fail("synchronize: " + p.take(err));
  }
  // Read everything back: outputs compared with the interpreter, inputs unchanged.
  std::vector<size_t> outputs = ir::written_params(k);
  for (size_t i = 0; i < k.params.size() && status.is_ok(); ++i) {
    if (!k.params[i].is_tensor) continue;
    examples::HostTensor got = data.tensors[i];
    if (tg_error* err = api.copy_d2h(g.queue, got.bytes.data(), buffers[i], 0, got.bytes.size())) {
      fail("copy_d2h: " + p.take(err));
      break;
    }
    if (tg_error* err = api.queue_synchronize(g.queue)) {
      fail("synchronize: " + p.take(err));
      break;
    }
    bool is_output = std::find(outputs.begin(), outputs.end(), i) != outputs.end();
    const examples::HostTensor& want = ref.tensors[i];
    if (!is_output) {
      if (got.bytes != data.tensors[i].bytes) fail("input '" + k.params[i].name + "' was modified by the kernel");
      continue;
    }
    Tolerance tol = o.use_default_tolerance ? default_tolerance(got.dtype) : o.tolerance;
    int64_t bad = 0;
    std::string first;
    for (int64_t e2 = 0; e2 < got.numel(); ++e2) {
      double x = got.at(e2), y = want.at(e2);
      bool ok = (std::isnan(x) && std::isnan(y)) || x == y || (std::isfinite(x) && std::isfinite(y) && std::fabs(x - y) <= tol.atol + tol.rtol * std::fabs(y));
      if (!ok && bad++ == 0) first = k.params[i].name + "[" + std::to_string(e2) + "]: got " + std::to_string(x) + ", expected " + std::to_string(y);
    }
    if (bad) fail(std::to_string(bad) + " of " + std::to_string(got.numel()) + " elements differ; first " + first);
  }
  for (tg_buffer* b : buffers)
    if (b) api.buffer_free(b);
  api.executable_free(exe);
  return status;
}

}  // namespace tegula::cuda::testing
