// f16 gemm with f32 accumulation through the Vulkan backend: C[M, N] = A[M, K] * B[K, N].
// For each block-tile variant of gemm_f16.tile.in it compiles the kernel (the lowering picks a
// cooperative-matrix instruction when the device has one), checks sampled elements against a
// float64 host computation, and times back-to-back launches with device timestamps (after a
// 200 ms warm-up, the median of five batches).
//
//   vulkan_gemm_bench [SIZE=4096] [REPEATS=20]
//
// Prints one line per variant: tile, instruction, milliseconds, TFLOP/s, max relative error.
// A variant whose error exceeds kMaxError (of the sum of the terms' magnitudes) is reported
// WRONG, does not count towards "best", and makes the exit status 1.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/DType.h"
#include "tegula/tegula.hpp"

using namespace tegula;

namespace {

/// The largest |C - reference| / sum |A[i, k] * B[k, j]| accepted. A correct f16 gemm with
/// f32 accumulation stays near 2^-11 (the f16 rounding of the result) plus its f32 sums'
/// error; a wrong tile, index or conversion lands far above.
constexpr double kMaxError = 1e-2;

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string subst(std::string text, const std::vector<std::pair<std::string, std::string>>& vars) {
  for (const auto& [k, v] : vars) {
    std::string key = "@" + k + "@";
    for (size_t p; (p = text.find(key)) != std::string::npos;) text.replace(p, key.size(), v);
  }
  return text;
}

/// The plugin's pipeline statistics (registers, spills, as the driver reports them), printed
/// under the variant that compiled them.
void print_statistics(void*, int, const char* message) {
  std::string m = message;
  if (m.find("pipeline statistics") != std::string::npos) std::printf("    %s\n", m.c_str());
}

int fail(const Status& s, const char* what) {
  std::fprintf(stderr, "%s: %s\n", what, s.str().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t n = argc > 1 ? std::atoll(argv[1]) : 4096;
  int repeats = argc > 2 ? std::atoi(argv[2]) : 20;
  RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/vulkan.json"};
  o.cache_dir = "off";
  o.log = print_statistics;
  auto rt = Runtime::open(o);
  if (!rt.is_ok()) return fail(rt.status(), "runtime");
  auto dev = rt->find_device("vulkan");
  if (!dev.is_ok()) return fail(dev.status(), "device");
  auto info = dev->info();
  std::printf("device: %s (%s), target %s, driver %s\n", info->device_name.c_str(), info->name.c_str(), info->target.c_str(),
              info->driver_version.c_str());

  // Inputs: uniform in [-1, 1), rounded to f16.
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  size_t elems = size_t(n) * size_t(n);
  std::vector<uint16_t> a(elems), b(elems);
  for (auto& x : a) x = f16_from_double(u(rng));
  for (auto& x : b) x = f16_from_double(u(rng));
  auto A = dev->alloc(elems * 2), B = dev->alloc(elems * 2), C = dev->alloc(elems * 2);
  if (!A.is_ok() || !B.is_ok() || !C.is_ok()) return fail(A.is_ok() ? (B.is_ok() ? C.status() : B.status()) : A.status(), "alloc");
  if (Status s = A->write(a); !s.is_ok()) return fail(s, "write A");
  if (Status s = B->write(b); !s.is_ok()) return fail(s, "write B");

  // TEGULA_BENCH_COMPUTE_ONLY=1: the loop without its global traffic (gemm_f16_compute.tile.in),
  // an upper bound for the main loop; its outputs are not checked (they are not A * B).
  bool compute_only = std::getenv("TEGULA_BENCH_COMPUTE_ONLY") != nullptr;
  std::string tmpl = read(std::string(TEGULA_SOURCE_DIR) + "/bench/vulkan/" + (compute_only ? "gemm_f16_compute.tile.in" : "gemm_f16.tile.in"));
  // Block tile, threads and the loop's stages. With subgroup matrices, 2 stages double-buffer
  // the shared tiles (one barrier per step) and 1 keeps one stage; with workgroup matrices
  // (the driver stages the tiles) the stages unroll the K loop. Which wins depends on the
  // tile (bench/results/vulkan-h200-2026-11-30.md).
  struct Variant {
    int bm, bn, bk, threads, stages;
  };
  std::vector<Variant> variants = {{128, 256, 32, 256, 4}, {128, 256, 32, 256, 2}, {128, 256, 32, 256, 3}, {128, 256, 32, 256, 6},
                                   {128, 256, 64, 256, 2}, {128, 256, 64, 256, 4}, {128, 256, 16, 256, 8}, {128, 128, 32, 128, 4},
                                   {128, 128, 64, 128, 2}, {128, 128, 32, 128, 1}};
  // TEGULA_BENCH_VARIANTS="128x128x32/128/1,128x256x16/256/2": only these (stages 1 if omitted).
  if (const char* list = std::getenv("TEGULA_BENCH_VARIANTS")) {
    variants.clear();
    std::stringstream items(list);
    std::string item;
    while (std::getline(items, item, ',')) {
      Variant v{};
      int got = std::sscanf(item.c_str(), "%dx%dx%d/%d/%d", &v.bm, &v.bn, &v.bk, &v.threads, &v.stages);
      if (got < 4) {
        std::fprintf(stderr, "TEGULA_BENCH_VARIANTS: '%s' is not MxNxK/THREADS[/STAGES]\n", item.c_str());
        return 2;
      }
      if (got == 4) v.stages = 1;
      variants.push_back(v);
    }
  }
  // Blocks launch in groups of 8 rows of the grid (as the CUDA benchmark lowers them), so
  // blocks running together share A rows and B columns in L2; TEGULA_BENCH_RASTER=0 turns it off.
  uint32_t raster = 8;
  if (const char* r = std::getenv("TEGULA_BENCH_RASTER")) raster = uint32_t(std::strtoul(r, nullptr, 10));
  std::printf("raster group %u\n", raster);
  double best = 0;
  int wrong_variants = 0;
  for (const Variant& v : variants) {
    std::string text = subst(tmpl, {{"M", std::to_string(n)}, {"N", std::to_string(n)}, {"K", std::to_string(n)},
                                    {"BM", std::to_string(v.bm)}, {"BN", std::to_string(v.bn)}, {"BK", std::to_string(v.bk)},
                                    {"T", std::to_string(v.threads)}, {"S", std::to_string(v.stages)}});
    char tile[64];
    std::snprintf(tile, sizeof tile, "%dx%dx%d/%d/%d", v.bm, v.bn, v.bk, v.threads, v.stages);
    CompileOptions co;
    co.use_cache = false;
    co.raster_group = raster;
    auto t0 = std::chrono::steady_clock::now();
    auto kernel = dev->compile(text, co);
    double compile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!kernel.is_ok()) {
      std::printf("%-18s compile failed: %s\n", tile, kernel.status().str().c_str());
      continue;
    }
    std::vector<Arg> args{Arg::tensor(*A), Arg::tensor(*B), Arg::tensor(*C)};
    if (Status s = C->fill<uint16_t>(0xffff, 0, elems * 2); !s.is_ok()) return fail(s, "fill");
    for (int i = 0; i < 2; ++i)
      if (Status s = kernel->launch(args); !s.is_ok()) return fail(s, "launch");
    if (Status s = dev->synchronize(); !s.is_ok()) return fail(s, "synchronize");
    std::string described;
    if (auto d = kernel->describe(); d.is_ok()) described = *d;
    // The matrix path of the variant that ran (the description, a SPIR-V listing, follows the
    // latest launch): workgroup matrices load with tensor addressing.
    std::string inst = described.find("OpCooperativeMatrixLoadTensorNV") != std::string::npos ? "coopmat-workgroup"
                       : described.find("OpCooperativeMatrixMulAddKHR") != std::string::npos  ? "coopmat-subgroup"
                                                                                               : "fma";
    // Check sampled elements against float64.
    std::vector<uint16_t> c(elems);
    if (Status s = C->read(c.data(), elems * 2); !s.is_ok()) return fail(s, "read");
    double max_rel = 0;
    std::mt19937_64 pick(7);
    for (int s = 0; s < (compute_only ? 0 : 256); ++s) {
      size_t i = pick() % size_t(n), j = pick() % size_t(n);
      double want = 0, mag = 0;
      for (int64_t k = 0; k < n; ++k) {
        double p = f16_to_double(a[i * size_t(n) + size_t(k)]) * f16_to_double(b[size_t(k) * size_t(n) + j]);
        want += p;
        mag += std::fabs(p);
      }
      double got = f16_to_double(c[i * size_t(n) + j]);
      double rel = std::fabs(got - want) / std::max(mag, 1e-30);
      max_rel = std::isnan(rel) ? INFINITY : std::max(max_rel, rel);  // a NaN result is as wrong as it gets
    }
    bool wrong = max_rel > kMaxError;
    // Warm up for at least 200 ms of launches (the GPU's clocks leave their idle state during
    // the compile), then time five batches of `repeats` launches; the median batch counts.
    auto warm0 = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - warm0 < std::chrono::milliseconds(200)) {
      for (int r = 0; r < 10; ++r)
        if (Status s = kernel->launch(args); !s.is_ok()) return fail(s, "launch");
      if (Status s = dev->synchronize(); !s.is_ok()) return fail(s, "synchronize");
    }
    std::vector<double> batch_ms;
    double wall_ms = 0;
    for (int batch = 0; batch < 5; ++batch) {
      auto e0 = dev->create_event(), e1 = dev->create_event();
      if (!e0.is_ok() || !e1.is_ok()) return fail(e0.is_ok() ? e1.status() : e0.status(), "event");
      auto w0 = std::chrono::steady_clock::now();
      (void)e0->record();
      for (int r = 0; r < repeats; ++r)
        if (Status s = kernel->launch(args); !s.is_ok()) return fail(s, "launch");
      (void)e1->record();
      if (Status s = e1->synchronize(); !s.is_ok()) return fail(s, "event synchronize");
      double w = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count() / repeats;
      auto gpu = Event::elapsed_ms(*e0, *e1);
      batch_ms.push_back(gpu.is_ok() ? *gpu / repeats : w);
      wall_ms += w / 5;
    }
    std::sort(batch_ms.begin(), batch_ms.end());
    double ms = batch_ms[2];
    double tflops = 2.0 * double(n) * double(n) * double(n) / (ms * 1e-3) / 1e12;
    if (!wrong) best = std::max(best, tflops);
    wrong_variants += wrong ? 1 : 0;
    std::printf("%-18s %-17s %9.3f ms (batches %.3f-%.3f, wall %.3f ms) %8.1f TFLOP/s  max err/|terms| %.2e%s  compile %.2f s\n", tile,
                inst.c_str(), ms, batch_ms.front(), batch_ms.back(), wall_ms, tflops, max_rel, wrong ? " WRONG" : "", compile_s);
    std::fflush(stdout);
  }
  std::printf("best: %.1f TFLOP/s\n", best);
  if (wrong_variants) {
    std::printf("%d variant(s) WRONG: error above %.0e of the sum of |terms|\n", wrong_variants, kMaxError);
    return 1;
  }
  return 0;
}
