// Helpers shared by the runtime tests: where the test plugins are, scratch folders, a
// runtime opened on exactly the manifests a test names, a log that remembers its lines, and
// running the tegula CLI.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "core/Files.h"
#include "plugins/abi/tegula_plugin.h"
#include <cstring>
#include "tegula/tegula.hpp"

namespace tegula::testing {

inline std::string test_manifest(const std::string& plugin) {
  return std::string(TEGULA_TEST_PLUGINS_DIR) + "/" + plugin + ".json";
}
inline std::string reference_manifest() {
  return std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/reference.json";
}
inline std::string null_manifest() { return std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/null.json"; }
inline std::string plugin_library(const std::string& plugin) {
  return std::string(TEGULA_BINARY_DIR) + "/lib/libtegula_" + plugin + ".so";
}
inline std::string tegula_exe() { return std::string(TEGULA_BINARY_DIR) + "/bin/tegula"; }
inline std::string example(const std::string& path) { return std::string(TEGULA_SOURCE_DIR) + "/examples/" + path; }

/// A fresh, empty folder for one test.
inline std::string scratch_dir(const std::string& name) {
  std::string dir = std::string(TEGULA_BINARY_DIR) + "/test_scratch/runtime/" + name + "." + std::to_string(::getpid());
  std::string cmd = "rm -rf '" + dir + "'";
  if (std::system(cmd.c_str()) != 0) return dir;
  (void)make_dirs(dir);
  return dir;
}

/// Write a manifest for `library` named `name` into `dir`; returns its path.
inline std::string write_manifest(const std::string& dir, const std::string& name, const std::string& library,
                                  const std::string& extra = "", int abi_min = 1, int abi_max = 1) {
  std::string path = dir + "/" + name + ".json";
  std::string text = "{\"file_format_version\": \"1.0.0\", \"plugin\": {\"name\": \"" + name +
                     "\", \"library_path\": \"" + library + "\", \"abi_min\": " + std::to_string(abi_min) +
                     ", \"abi_max\": " + std::to_string(abi_max) + extra + "}}\n";
  (void)write_file_atomic(path, text);
  return path;
}

/// Remembers every log line a runtime sends. The runtime calls it from whichever thread
/// logs (compiles run side by side), so lines are appended under one lock.
struct CapturedLog {
  std::vector<std::string> lines;

  static void callback(void* user, int level, const char* message) {
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    static_cast<CapturedLog*>(user)->lines.push_back(std::to_string(level) + " " + message);
  }
  bool contains(const std::string& text) const {
    for (const std::string& l : lines)
      if (l.find(text) != std::string::npos) return true;
    return false;
  }
  std::string all() const {
    std::string out;
    for (const std::string& l : lines) out += l + "\n";
    return out;
  }
};

/// A runtime on exactly these manifests, blind to the environment, no compile cache unless
/// one is given.
inline Result<Runtime> open_runtime(const std::vector<std::string>& manifests, CapturedLog* log = nullptr,
                                    const std::string& cache_dir = "off") {
  RuntimeOptions o;
  o.manifest_paths = manifests;
  o.ignore_environment = true;
  o.cache_dir = cache_dir;
  if (log) {
    o.log = CapturedLog::callback;
    o.log_user = log;
  }
  return Runtime::open(o);
}

/// The reason `plugin` (or a device "plugin:i") was skipped, or "" when it was not.
inline std::string skip_reason(const Runtime& rt, const std::string& plugin_or_device) {
  for (const Skipped& s : rt.skipped())
    if (s.plugin == plugin_or_device || s.source == plugin_or_device) return s.reason;
  return "";
}

inline std::vector<std::string> device_names(const Runtime& rt) {
  std::vector<std::string> out;
  for (const Device& d : rt.devices()) out.push_back(d.info()->name);
  return out;
}

/// Run a shell command; returns its exit status and fills *output with stdout and stderr.
inline int run_command(const std::string& command, std::string* output) {
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  output->clear();
  while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) output->append(buf, n);
  int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// A small verified kernel: Y = X * a + b over N f32 elements, in blocks of 64.
inline const char* axpb_ir() {
  return "kernel axpb(X: f32[N], Y: f32[N], a: f32, b: f32) grid(ceildiv(N, 64)) threads(64) {\n"
         "  alloc x: fragment f32[64]\n"
         "  copy X[bx * 64], x\n"
         "  map x = x * a + b\n"
         "  copy x, Y[bx * 64]\n"
         "}\n";
}

/// Y = 2 X with a tunable block size (ir/Tunables.h): B elements a block, so the grid
/// depends on the binding and a launch run with another binding's grid leaves elements
/// unwritten.
inline const char* tunable_scale_ir() {
  return "kernel scale(X: f32[N], Y: f32[N]) tune(B in [64, 128, 256], T in [32, 64]) where(B >= T)\n"
         "    grid(ceildiv(N, B)) threads(T) {\n"
         "  alloc x: shared f32[B]\n"
         "  copy X[bx * B], x\n"
         "  map x = x * 2.0\n"
         "  copy x, Y[bx * B]\n"
         "}\n";
}

/// Launch a kernel of tunable_scale_ir's signature on N elements 0..N-1 and check Y = 2 X
/// (Y is poisoned first); returns "" or what went wrong.
inline std::string run_scale(Device& d, Kernel& k, int64_t n) {
  std::vector<float> x(static_cast<size_t>(n)), poison(static_cast<size_t>(n), -12345.0f);
  for (int64_t i = 0; i < n; ++i) x[size_t(i)] = float(i);
  auto X = d.alloc(uint64_t(n) * 4);
  auto Y = d.alloc(uint64_t(n) * 4);
  if (!X.is_ok() || !Y.is_ok()) return "alloc failed";
  if (!X->write(x).is_ok() || !Y->write(poison).is_ok()) return "write failed";
  Status st = k.launch({Arg::tensor(*X), Arg::tensor(*Y), Arg::integer(n)});
  if (!st.is_ok()) return st.str();
  if (!d.synchronize().is_ok()) return "synchronize failed";
  auto y = Y->read<float>(size_t(n));
  if (!y.is_ok()) return "read failed";
  for (int64_t i = 0; i < n; ++i)
    if ((*y)[size_t(i)] != 2.0f * float(i))
      return "Y[" + std::to_string(i) + "] = " + std::to_string((*y)[size_t(i)]) + " at N = " + std::to_string(n);
  return "";
}

}  // namespace tegula::testing
