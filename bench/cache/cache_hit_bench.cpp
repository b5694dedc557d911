/// \file
/// Compile-cache hits through the public runtime on one device: what Device::compile costs
/// when the cache holds the kernel (hash the request, read and check the entry, hand the
/// executable to the plugin), beside the cold compile. Host-side, on any device: reference:0
/// and cpu:0 on a workstation, cuda:0 on the H200 (bench/h200/run_all.sh, step cachebench).
///
///   build/bin/tegula_bench_cache [--device NAME] [--reps N] [KERNEL.tile ...]
///
/// First a line with SHA-256's rate on 8 MiB, with the implementation this process uses and
/// with the portable code (a hit hashes the executable twice, core/Sha256.h), then one line
/// for what a process pays once: runtime_open_ms (Runtime::open with
/// the one plugin) and first_compile_ms (a small kernel that is no example, compiled with
/// nothing cached: the device's context is created and the plugin's compiler starts).
/// Then one line per kernel, all in that process, with the device in use: cold_ms (an
/// empty cache folder: parse, lower, plugin compile, store, load), first_hit_ms (the first
/// compile in a second runtime on the filled folder), hit_ms and hit_min_ms (median and
/// fastest of N more hits in that runtime, each timed from compile to the kernel's return,
/// then freed untimed), and the runtime's parse and lowering counts over all the hits (0: a
/// hit neither parses nor lowers). (Before 2026-12-04 cold_ms and first_hit_ms were each in
/// a fresh runtime, so on cuda:0 they held the context's creation, ~110 ms, every time.)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/Sha256.h"
#include "core/Xxh64.h"
#include "tegula/tegula.hpp"

using namespace tegula;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "tegula_bench_cache: %s\n", message.c_str());
  std::exit(1);
}

std::string read_text(const std::string& path) {
  std::string full = path.empty() || path[0] == '/' ? path : std::string(TEGULA_SOURCE_DIR) + "/" + path;
  std::ifstream in(full);
  if (!in) die("cannot read " + full);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Runtime open_on(const std::string& device, const std::string& cache) {
  RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d"};
  o.select_plugins = device.substr(0, device.find(':'));  // only the plugin the device needs
  o.ignore_environment = true;
  o.cache_dir = cache;
  auto rt = Runtime::open(o);
  if (!rt.is_ok()) die(rt.status().str());
  return std::move(*rt);
}

/// Compiled first, to start what a process starts once; not one of the examples, so their
/// cold compiles find nothing of theirs already done.
constexpr const char* kWarmUpKernel = R"(kernel bench_warm_up(X: f32[N], Y: f32[N]) grid(ceildiv(N, 1024)) threads(128) {
  alloc x: fragment f32[1024]
  copy X[bx * 1024], x
  map x = x * 2.0 + 1.0
  copy x, Y[bx * 1024]
}
)";

/// MB/s of Sha256 over 8 MiB, best of three.
double sha256_rate(bool portable_only) {
  std::string data(size_t(8) << 20, 'x');
  double best = 1e300;
  for (int r = 0; r < 3; ++r) {
    auto start = Clock::now();
    Sha256 h = portable_only ? Sha256(Sha256::PortableOnly{}) : Sha256();
    h.update(data).digest();
    best = std::min(best, ms_since(start));
  }
  return double(data.size()) / 1e6 / (best * 1e-3);
}

/// MB/s of XXH64 over 8 MiB, best of three.
double xxh64_rate() {
  std::string data(size_t(8) << 20, 'x');
  double best = 1e300;
  volatile uint64_t sink = 0;
  for (int r = 0; r < 3; ++r) {
    auto start = Clock::now();
    sink = sink + xxh64(data);
    best = std::min(best, ms_since(start));
  }
  return double(data.size()) / 1e6 / (best * 1e-3);
}

}  // namespace

int main(int argc, char** argv) {
  std::string device = "reference:0";
  int reps = 50;
  std::vector<std::string> kernels;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) device = argv[++i];
    else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--help") {
      std::printf("usage: tegula_bench_cache [--device NAME] [--reps N] [KERNEL.tile ...]\n");
      return 0;
    } else if (!a.empty() && a[0] == '-') die("unknown option " + a);
    else kernels.push_back(a);
  }
  if (kernels.empty())
    kernels = {"examples/elementwise/silu_mul.tile", "examples/elementwise/silu_mul_parallel.tile", "examples/reduce/row_sum.tile",
               "examples/softmax/softmax_rows.tile", "examples/norm/rmsnorm.tile", "examples/gemm/gemm_f16.tile",
               "examples/gemm/gemm_bf16.tile", "examples/attention/flash_attn_d128.tile"};
  // What a hit hashes: the entry's and the container's XXH64 over the executable (SHA-256
  // until entry format 4).
  std::printf("{\"bench\":\"hashes\",\"xxh64_mb_per_s\":%.0f,\"sha256\":\"%s\",\"sha256_mb_per_s\":%.0f,\"portable_mb_per_s\":%.0f}\n",
              xxh64_rate(), sha256_implementation(), sha256_rate(false), sha256_rate(true));
  std::string cache = (std::filesystem::temp_directory_path() / ("tegula-bench-cache-hit-" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(cache);
  // The runtime that stays open: the device's context lives while it does, as in a program
  // that compiles its kernels one after another.
  auto start = Clock::now();
  Runtime first_rt = open_on(device, cache);
  double open_ms = ms_since(start);
  auto first_device = first_rt.find_device(device);
  if (!first_device.is_ok()) die(first_device.status().str());
  start = Clock::now();
  auto warm_up = first_device->compile(kWarmUpKernel);
  double first_compile_ms = ms_since(start);
  if (!warm_up.is_ok()) die("the warm-up kernel: " + warm_up.status().str());
  std::printf("{\"bench\":\"cache_process_start\",\"device\":\"%s\",\"runtime_open_ms\":%.2f,\"first_compile_ms\":%.2f}\n",
              device.c_str(), open_ms, first_compile_ms);
  std::vector<double> all_hits;
  for (const std::string& path : kernels) {
    std::string text = read_text(path);
    std::filesystem::remove_all(cache);
    start = Clock::now();
    auto cold = first_device->compile(text);
    double cold_ms = ms_since(start);
    if (!cold.is_ok()) die(path + ": " + cold.status().str());
    if (cold->cache_result() == TEGULA_CACHE_HIT) die(path + ": the cold compile found the kernel cached");
    Runtime rt = open_on(device, cache);
    auto d = rt.find_device(device);
    if (!d.is_ok()) die(d.status().str());
    start = Clock::now();
    auto first = d->compile(text);
    double first_ms = ms_since(start);
    if (!first.is_ok()) die(path + ": " + first.status().str());
    if (first->cache_result() != TEGULA_CACHE_HIT) die(path + ": the second runtime's compile was not a cache hit");
    std::vector<double> hits;
    for (int r = 0; r < reps; ++r) {
      start = Clock::now();
      auto k = d->compile(text);
      hits.push_back(ms_since(start));
      if (!k.is_ok() || k->cache_result() != TEGULA_CACHE_HIT) die(path + ": a repeated compile was not a cache hit");
    }
    tegula_runtime_stats s = rt.stats();
    all_hits.push_back(median(hits));
    std::printf("{\"bench\":\"cache_hit\",\"device\":\"%s\",\"kernel\":\"%s\",\"cold_ms\":%.2f,\"first_hit_ms\":%.3f,"
                "\"hit_ms\":%.3f,\"hit_min_ms\":%.3f,\"hits\":%d,\"ir_parses\":%llu,\"ir_lowerings\":%llu}\n",
                device.c_str(), path.c_str(), cold_ms, first_ms, median(hits), *std::min_element(hits.begin(), hits.end()),
                reps + 1, (unsigned long long)s.ir_parses, (unsigned long long)s.ir_lowerings);
    std::fflush(stdout);
  }
  std::filesystem::remove_all(cache);
  std::printf("{\"bench\":\"cache_hit_summary\",\"device\":\"%s\",\"kernels\":%zu,\"hit_ms_median_max\":%.3f}\n", device.c_str(),
              kernels.size(), *std::max_element(all_hits.begin(), all_hits.end()));
  return 0;
}
