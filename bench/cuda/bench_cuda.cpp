/// \file
/// tegula_bench_cuda: the cuda plugin's figures on the first CUDA device, printed as one JSON
/// object per line (and a table on stderr). Run beside bench/cuda/peer_torch.py (cuBLAS and
/// PyTorch on the same device, same shapes, random data) by bench/cuda/run.sh.
///
///   gemm       bf16 and f16 (f32 accumulation) at 4096^3 and 8192^3 with bench/cuda/gemm_*_h200.tile,
///              lowered with the divisibility the shapes give and rasterisation; median of many
///              launches timed by events after warm-up; results spot-checked in float64
///              e4m3 (FP8, per-tensor scales, bf16 out) at 8192^3 with bench/cuda/gemm_fp8_h200.tile
///   softmax    f16 8192 x 16384 rows with bench/cuda/softmax_row_h200.tile (and the example
///              softmax_rows.tile), against a device-to-device copy of the same bytes
///   norm       RMSNorm and LayerNorm of f16 8192 x 8192 rows with bench/cuda/*norm_h200.tile (one
///              row per block in registers) and the examples (examples/norm, any row length),
///              against a device-to-device copy of the same bytes; spot-checked in float64;
///              and H = X + R, Y = LayerNorm(H) (bench/cuda/layernorm_residual_h200.tile and the
///              example) by the four tensors' bytes
///   int4       W4A16 (int4 weights in i32[N, K/8], f16 scales per group of 128 along K, f32
///              accumulation; examples/quant/gemv_int4.tile says the format): the GEMV at
///              n = k = 8192 for m = 1 and 16 (bench/cuda/gemv_int4_h200.tile, the examples)
///              by the bytes it must read, and the GEMM at m = 4096 (bench/cuda/gemm_int4_h200.tile,
///              exact, and gemm_int4_f16w_h200.tile, weights rounded to f16 as Marlin does) in
///              TFLOP/s; spot-checked in float64 against the exactly dequantised weights
///   attention  FlashAttention forward (examples/attention) bf16 at batch 8, 16 heads, sequence
///              4096, head dim 128 and batch 16, 16 heads, 2048, head dim 64, non-causal and
///              causal; spot-checked in float64
///   mla        MLA decode (examples/mla) at batch 64, 128 heads, L = 4096: KV-cache bytes read
///              per second against a device-to-device copy (bench/cuda/BenchMla.cpp)
///   mamba2     Mamba-2's chunked scan (examples/mamba2) at batch 4, sequence 4096, 32 heads, head
///              dim 64, state 128, chunks of 64: the three-kernel chain and the fused kernel in
///              TFLOP/s and GB/s, spot-checked against the sequential recurrence in float64
///              (bench/cuda/BenchMamba2.cpp; not in "all": run_all.sh's mamba2bench step)
///   compile    cold compile (lowering + code generation + NVRTC) and warm-cache load of each
///              kernel through the public runtime API
///   launch     host time per launch through tegula_launch, and through a bare cuLaunchKernel
///              of the same kernel
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench/cuda/BenchMamba2.h"
#include "bench/cuda/BenchMla.h"
#include "core/DType.h"
#include "core/Files.h"
#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "plugins/abi/tegula_plugin.h"
#include "plugins/cuda/Compile.h"
#include "plugins/cuda/DriverApi.h"
#include "runtime/include/tegula/tegula.hpp"
#include "targets/Target.h"

using namespace tegula;

namespace {

using Clock = std::chrono::steady_clock;

struct Api {
  const tg_plugin_api* api = nullptr;
  tg_plugin* plugin = nullptr;
  tg_device* device = nullptr;
  tg_queue* queue = nullptr;
  std::string target;
};

[[noreturn]] void die(const std::string& m) {
  std::fprintf(stderr, "tegula_bench_cuda: %s\n", m.c_str());
  std::exit(1);
}

void ok(const Api& a, tg_error* e, const char* what) {
  if (!e) return;
  std::string m = a.api->error_message(e);
  a.api->error_destroy(e);
  die(std::string(what) + ": " + m);
}

Api open_plugin(const std::string& path) {
  Api a;
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) die(dlerror());
  auto q = reinterpret_cast<tg_plugin_query_fn>(dlsym(lib, TG_PLUGIN_QUERY_SYMBOL));
  a.api = q ? q(1, 1, nullptr) : nullptr;
  if (!a.api) die("not a plugin: " + path);
  tg_host_info host{};
  host.struct_size = sizeof host;
  host.abi_version = 1;
  host.host_version = "bench";
  ok(a, a.api->init(&host, &a.plugin), "init");
  uint32_t n = 0;
  ok(a, a.api->device_count(a.plugin, &n), "device_count");
  if (!n) die("no CUDA device");
  tg_device_properties p{};
  p.struct_size = sizeof p;
  ok(a, a.api->device_properties(a.plugin, 0, &p), "device_properties");
  a.target = p.target;
  std::fprintf(stderr, "device: %s (%s), %u SMs, driver %s, NVRTC %s\n", p.name, p.target, p.compute_units, p.driver_version, p.toolkit_version);
  ok(a, a.api->device_open(a.plugin, 0, &a.device), "device_open");
  ok(a, a.api->queue_create(a.device, &a.queue), "queue_create");
  return a;
}

struct Kernel {
  tg_executable* exe = nullptr;
  ir::Kernel ir;
  double compile_ms = 0;
};

Kernel compile(Api& a, const std::string& text, const ir::LowerOptions& o, const std::string& options = "") {
  Kernel k;
  auto parsed = ir::parse_and_verify(text, "bench.tile");
  if (!parsed.is_ok()) die(parsed.status().str());
  k.ir = *parsed;
  auto t = builtin_target(a.target);
  auto start = Clock::now();
  auto lowered = ir::lower(k.ir, *t, o);
  if (!lowered.is_ok()) die(lowered.status().str());
  std::string lt = ir::print_kernel(lowered->kernel);
  tg_compile_request r{};
  r.struct_size = sizeof r;
  r.ir_format = TG_IR_FORMAT_LOWERED_V1;
  r.ir_data = lt.data();
  r.ir_size = lt.size();
  r.options = options.c_str();
  tg_blob b{};
  b.struct_size = sizeof b;
  ok(a, a.api->compile(a.device, &r, &b), "compile");
  ok(a, a.api->executable_load(a.device, b.data, b.size, &k.exe), "executable_load");
  k.compile_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  a.api->blob_release(&b);
  return k;
}

tg_buffer* alloc_random(Api& a, DType d, size_t n, uint64_t seed, std::vector<uint8_t>* keep = nullptr) {
  std::vector<uint8_t> bytes(n * dtype_size(d));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (size_t i = 0; i < n; ++i) store_element(d, u(rng), bytes.data() + i * dtype_size(d));
  tg_buffer* b = nullptr;
  ok(a, a.api->buffer_alloc(a.device, bytes.size(), &b), "buffer_alloc");
  ok(a, a.api->copy_h2d(a.queue, b, 0, bytes.data(), bytes.size()), "copy_h2d");
  if (keep) *keep = std::move(bytes);
  return b;
}

tg_launch_arg tensor(tg_buffer* b) {
  tg_launch_arg x{};
  x.struct_size = sizeof x;
  x.kind = TG_ARG_BUFFER;
  x.buffer = b;
  return x;
}

tg_launch_arg integer(int64_t v) {
  tg_launch_arg x{};
  x.struct_size = sizeof x;
  x.kind = TG_ARG_I64;
  x.i64 = v;
  return x;
}

/// Median device time (ms) of `reps` launches after `warm` untimed ones, each timed by events.
double time_ms(Api& a, int warm, int reps, const std::function<void()>& work) {
  for (int i = 0; i < warm; ++i) work();
  ok(a, a.api->queue_synchronize(a.queue), "synchronize");
  tg_event *e0 = nullptr, *e1 = nullptr;
  ok(a, a.api->event_create(a.device, &e0), "event_create");
  ok(a, a.api->event_create(a.device, &e1), "event_create");
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    ok(a, a.api->event_record(a.queue, e0), "event_record");
    work();
    ok(a, a.api->event_record(a.queue, e1), "event_record");
    ok(a, a.api->event_synchronize(e1), "event_synchronize");
    double t = 0;
    ok(a, a.api->event_elapsed_ms(e0, e1, &t), "event_elapsed_ms");
    ms.push_back(t);
  }
  a.api->event_destroy(e0);
  a.api->event_destroy(e1);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

void launch(Api& a, Kernel& k, std::vector<tg_launch_arg> args, uint32_t gx, uint32_t gy, uint32_t gz = 1) {
  tg_launch_params p{};
  p.struct_size = sizeof p;
  p.grid[0] = gx;
  p.grid[1] = gy;
  p.grid[2] = gz;
  p.args = args.data();
  p.arg_count = args.size();
  ok(a, a.api->launch(a.queue, k.exe, &p), "launch");
}

std::string read(const std::string& rel) {
  auto t = read_file(rel[0] == '/' ? rel : std::string(TEGULA_SOURCE_DIR) + "/" + rel);
  if (!t.is_ok()) die(t.status().str());
  return *t;
}

tg_launch_arg number(double v) {
  tg_launch_arg x{};
  x.struct_size = sizeof x;
  x.kind = TG_ARG_F64;
  x.f64 = v;
  return x;
}

/// bf16 and f16: C = A B with the h200 tile. e4m3: C (bf16) = (sa * sb) A B^T with B given as
/// [N, K] (bench/cuda/gemm_fp8_h200.tile, torch._scaled_mm's layout), sa = 0.5, sb = 2.
void bench_gemm(Api& a, const char* dt_name, int64_t n) {
  DType dt = *parse_dtype(dt_name);
  bool fp8 = dt == DType::E4M3;
  DType out = fp8 ? DType::BF16 : dt;
  std::string file = fp8 ? "bench/cuda/gemm_fp8_h200.tile" : std::string("bench/cuda/gemm_") + dt_name + "_h200.tile";
  ir::LowerOptions o;
  o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
  o.raster_group = 8;
  Kernel k = compile(a, read(file), o);
  std::vector<uint8_t> ha, hb;
  tg_buffer* A = alloc_random(a, dt, size_t(n * n), 1, &ha);
  tg_buffer* B = alloc_random(a, dt, size_t(n * n), 2, &hb);
  tg_buffer* C = nullptr;
  ok(a, a.api->buffer_alloc(a.device, size_t(n * n) * dtype_size(out), &C), "alloc");
  std::vector<tg_launch_arg> args = {tensor(A), tensor(B), tensor(C)};
  if (fp8) args.insert(args.end(), {number(0.5), number(2.0)});
  args.insert(args.end(), {integer(n), integer(n), integer(n)});
  uint32_t gx = uint32_t((n + 255) / 256), gy = uint32_t((n + 127) / 128);
  int reps = n >= 8192 ? 30 : 100;
  double ms = time_ms(a, 10, reps, [&] { launch(a, k, args, gx, gy); });
  double tflops = 2.0 * double(n) * double(n) * double(n) / (ms * 1e-3) / 1e12;
  // Spot check: 64 elements against float64 dot products of the same inputs.
  std::vector<uint8_t> hc(size_t(n * n) * dtype_size(out));
  ok(a, a.api->copy_d2h(a.queue, hc.data(), C, 0, hc.size()), "copy_d2h");
  ok(a, a.api->queue_synchronize(a.queue), "synchronize");
  std::mt19937_64 rng(5);
  double worst = 0;
  size_t es = dtype_size(dt);
  for (int s = 0; s < 64; ++s) {
    int64_t i = int64_t(rng() % uint64_t(n)), j = int64_t(rng() % uint64_t(n));
    double want = 0;
    for (int64_t kk = 0; kk < n; ++kk) {
      size_t b_at = fp8 ? size_t(j * n + kk) : size_t(kk * n + j);
      want += load_element(dt, ha.data() + size_t(i * n + kk) * es) * load_element(dt, hb.data() + b_at * es);
    }
    double got = load_element(out, hc.data() + size_t(i * n + j) * dtype_size(out));
    worst = std::max(worst, std::fabs(got - want) / (std::fabs(want) + std::sqrt(double(n)) * 0.05));
  }
  std::printf("{\"bench\":\"gemm\",\"dtype\":\"%s\",\"n\":%lld,\"ms\":%.4f,\"tflops\":%.1f,\"compile_ms\":%.0f,\"max_rel_err\":%.2e}\n", dt_name,
              (long long)n, ms, tflops, k.compile_ms, worst);
  std::fflush(stdout);
  a.api->buffer_free(A);
  a.api->buffer_free(B);
  a.api->buffer_free(C);
  a.api->executable_free(k.exe);
}

void bench_softmax(Api& a) {
  const int64_t M = 8192, N = 16384;
  size_t bytes = size_t(M * N) * 2;
  std::vector<uint8_t> hx;
  tg_buffer* X = alloc_random(a, DType::F16, size_t(M * N), 3, &hx);
  tg_buffer* Y = nullptr;
  ok(a, a.api->buffer_alloc(a.device, bytes, &Y), "alloc");
  double copy_ms = time_ms(a, 10, 100, [&] { ok(a, a.api->copy_d2d(a.queue, Y, 0, X, 0, bytes), "copy_d2d"); });
  double copy_tbps = 2.0 * double(bytes) / (copy_ms * 1e-3) / 1e12;
  std::printf("{\"bench\":\"d2d_copy\",\"bytes\":%zu,\"ms\":%.4f,\"tbps\":%.3f}\n", bytes, copy_ms, copy_tbps);
  // The bench tile at 1024, 512 and 256 threads per row, with one or two resident blocks per
  // SM (compile option min_blocks_per_sm caps registers), and the example (4 rows per block).
  struct Variant {
    int threads, min_blocks;
  };
  const Variant variants[] = {{1024, 1}, {1024, 2}, {512, 2}, {256, 2}, {0, 1}};
  for (int variant = 0; variant < 5; ++variant) {
    const Variant& v = variants[variant];
    bool example = v.threads == 0;
    std::string file = example ? "examples/softmax/softmax_rows.tile" : "bench/cuda/softmax_row_h200.tile";
    std::string text = read(file);
    if (!example) {
      size_t p = text.find("threads(1024)");
      text.replace(p, 13, "threads(" + std::to_string(v.threads) + ")");
      file += " threads(" + std::to_string(v.threads) + ") min_blocks_per_sm=" + std::to_string(v.min_blocks);
    }
    std::string options = "min_blocks_per_sm=" + std::to_string(v.min_blocks) + "\n";
    ir::LowerOptions o;
    if (example) o.divisibility = {{"N", 16}};
    Kernel k = compile(a, text, o, options);
    std::vector<tg_launch_arg> args = {tensor(X), tensor(Y), integer(M)};
    if (example) args.push_back(integer(N));
    uint32_t gx = !example ? uint32_t(M) : uint32_t(M / 4);
    double ms = time_ms(a, 10, 100, [&] { launch(a, k, args, gx, 1); });
    double tbps = 2.0 * double(bytes) / (ms * 1e-3) / 1e12;
    // Spot check 8 rows.
    std::vector<uint8_t> hy(bytes);
    ok(a, a.api->copy_d2h(a.queue, hy.data(), Y, 0, bytes), "copy_d2h");
    ok(a, a.api->queue_synchronize(a.queue), "synchronize");
    double worst = 0;
    for (int64_t r = 0; r < M; r += M / 8) {
      double mx = -INFINITY, sum = 0;
      for (int64_t c = 0; c < N; ++c) mx = std::max(mx, f16_to_double(uint16_t(hx[size_t(2 * (r * N + c))] | hx[size_t(2 * (r * N + c) + 1)] << 8)));
      for (int64_t c = 0; c < N; ++c) sum += std::exp(f16_to_double(uint16_t(hx[size_t(2 * (r * N + c))] | hx[size_t(2 * (r * N + c) + 1)] << 8)) - mx);
      for (int64_t c = 0; c < N; c += 97) {
        double want = std::exp(f16_to_double(uint16_t(hx[size_t(2 * (r * N + c))] | hx[size_t(2 * (r * N + c) + 1)] << 8)) - mx) / sum;
        double got = f16_to_double(uint16_t(hy[size_t(2 * (r * N + c))] | hy[size_t(2 * (r * N + c) + 1)] << 8));
        worst = std::max(worst, std::fabs(got - want) / want);
      }
    }
    std::printf("{\"bench\":\"softmax\",\"kernel\":\"%s\",\"m\":%lld,\"n\":%lld,\"ms\":%.4f,\"tbps\":%.3f,\"vs_copy\":%.3f,\"compile_ms\":%.0f,\"max_rel_err\":%.2e}\n",
                file.c_str(), (long long)M, (long long)N, ms, tbps, tbps / copy_tbps, k.compile_ms, worst);
    std::fflush(stdout);
    a.api->executable_free(k.exe);
  }
  a.api->buffer_free(X);
  a.api->buffer_free(Y);
}

double f16_at(const std::vector<uint8_t>& h, int64_t i) { return f16_to_double(uint16_t(h[size_t(2 * i)] | h[size_t(2 * i + 1)] << 8)); }

/// The larger error, NaN if either is (std::max would drop a NaN in its second operand).
double worse(double a, double b) { return a != a || b != b ? std::nan("") : std::max(a, b); }

/// RMSNorm (layer = false) or LayerNorm of row `r` of X, checked at every 97th column of Y.
double norm_row_error(const std::vector<uint8_t>& hx, const std::vector<uint8_t>& hw, const std::vector<uint8_t>& hb,
                      const std::vector<uint8_t>& hy, int64_t r, int64_t N, bool layer) {
  double mean = 0, ss = 0;
  if (layer) {
    for (int64_t c = 0; c < N; ++c) mean += f16_at(hx, r * N + c);
    mean /= double(N);
  }
  for (int64_t c = 0; c < N; ++c) ss += (f16_at(hx, r * N + c) - mean) * (f16_at(hx, r * N + c) - mean);
  double rstd = 1.0 / std::sqrt(ss / double(N) + (layer ? 1e-5 : 1e-6));
  double worst = 0;
  for (int64_t c = 0; c < N; c += 97) {
    double want = (f16_at(hx, r * N + c) - mean) * rstd * f16_at(hw, c) + (layer ? f16_at(hb, c) : 0.0);
    worst = worse(worst, std::fabs(f16_at(hy, r * N + c) - want) / (std::fabs(want) + 1e-3));
  }
  return worst;
}

void bench_norm(Api& a) {
  const int64_t M = 8192, N = 8192;
  size_t bytes = size_t(M * N) * 2;
  std::vector<uint8_t> hx, hw, hb;
  tg_buffer* X = alloc_random(a, DType::F16, size_t(M * N), 5, &hx);
  tg_buffer* W = alloc_random(a, DType::F16, size_t(N), 6, &hw);
  tg_buffer* B = alloc_random(a, DType::F16, size_t(N), 7, &hb);
  tg_buffer* Y = nullptr;
  ok(a, a.api->buffer_alloc(a.device, bytes, &Y), "alloc");
  double copy_ms = time_ms(a, 10, 100, [&] { ok(a, a.api->copy_d2d(a.queue, Y, 0, X, 0, bytes), "copy_d2d"); });
  double copy_tbps = 2.0 * double(bytes) / (copy_ms * 1e-3) / 1e12;
  std::printf("{\"bench\":\"d2d_copy\",\"bytes\":%zu,\"ms\":%.4f,\"tbps\":%.3f}\n", bytes, copy_ms, copy_tbps);
  struct Variant {
    const char* file;
    bool layer, example;
    int threads, min_blocks;
  };
  const Variant variants[] = {{"bench/cuda/rmsnorm_h200.tile", false, false, 256, 2},
                              {"bench/cuda/rmsnorm_h200.tile", false, false, 512, 2},
                              {"examples/norm/rmsnorm.tile", false, true, 0, 2},
                              {"bench/cuda/layernorm_h200.tile", true, false, 256, 2},
                              {"bench/cuda/layernorm_h200.tile", true, false, 256, 3},
                              {"bench/cuda/layernorm_h200.tile", true, false, 512, 2},
                              {"bench/cuda/layernorm_lean_h200.tile", true, false, 256, 3},
                              {"bench/cuda/layernorm_lean_h200.tile", true, false, 256, 4},
                              {"bench/cuda/layernorm_lean_h200.tile", true, false, 512, 2},
                              {"bench/cuda/layernorm_lean_h200.tile", true, false, 512, 3},
                              {"bench/cuda/layernorm_lean_h200.tile", true, false, 1024, 1},
                              {"bench/cuda/layernorm_lean_h200.tile", true, false, 1024, 2},
                              {"examples/norm/layernorm.tile", true, true, 0, 2}};
  for (const Variant& v : variants) {
    std::string text = read(v.file), name = v.file;
    if (!v.example) {
      size_t p = text.find("threads(256)");
      text.replace(p, 12, "threads(" + std::to_string(v.threads) + ")");
      name += " threads(" + std::to_string(v.threads) + ")";
    }
    name += " min_blocks_per_sm=" + std::to_string(v.min_blocks);
    ir::LowerOptions o;
    if (v.example) o.divisibility = {{"N", 16}};
    Kernel k = compile(a, text, o, "min_blocks_per_sm=" + std::to_string(v.min_blocks) + "\n");
    std::vector<tg_launch_arg> args = {tensor(X), tensor(W)};
    if (v.layer) args.push_back(tensor(B));
    args.push_back(tensor(Y));
    args.push_back(integer(M));
    if (v.example) args.push_back(integer(N));
    uint32_t gx = v.example ? uint32_t(M / 4) : uint32_t(M);
    std::vector<uint8_t> poison(bytes, 0xff);  // NaN in f16: a row the kernel skips cannot pass
    ok(a, a.api->copy_h2d(a.queue, Y, 0, poison.data(), bytes), "copy_h2d");
    double ms = time_ms(a, 10, 100, [&] { launch(a, k, args, gx, 1); });
    // Bytes that must move: X and Y once (W and B are 16 KiB, read from cache).
    double tbps = 2.0 * double(bytes) / (ms * 1e-3) / 1e12;
    std::vector<uint8_t> hy(bytes);
    ok(a, a.api->copy_d2h(a.queue, hy.data(), Y, 0, bytes), "copy_d2h");
    ok(a, a.api->queue_synchronize(a.queue), "synchronize");
    double worst = 0;
    for (int64_t r = 0; r < M; r += M / 8) worst = worse(worst, norm_row_error(hx, hw, hb, hy, r, N, v.layer));
    std::printf("{\"bench\":\"%s\",\"kernel\":\"%s\",\"m\":%lld,\"n\":%lld,\"ms\":%.4f,\"tbps\":%.3f,\"vs_copy\":%.3f,\"compile_ms\":%.0f,\"max_rel_err\":%.2e}\n",
                v.layer ? "layernorm" : "rmsnorm", name.c_str(), (long long)M, (long long)N, ms, tbps, tbps / copy_tbps, k.compile_ms, worst);
    std::fflush(stdout);
    a.api->executable_free(k.exe);
  }
  for (tg_buffer* b : {X, W, B, Y}) a.api->buffer_free(b);
}

/// H = X + R and Y = LayerNorm(H) * W + B (f16 8192 x 8192, eps 1e-5): the H200 variant (one
/// row per block in registers) and the example (any row length, reads H back), by the bytes that
/// must move (X and R read, H and Y written) against a device-to-device copy; H is checked
/// exactly and Y in float64 on eight rows.
void bench_norm_residual(Api& a) {
  const int64_t M = 8192, N = 8192;
  size_t bytes = size_t(M * N) * 2;
  std::vector<uint8_t> hx, hr, hw, hb;
  tg_buffer* X = alloc_random(a, DType::F16, size_t(M * N), 21, &hx);
  tg_buffer* R = alloc_random(a, DType::F16, size_t(M * N), 22, &hr);
  tg_buffer* W = alloc_random(a, DType::F16, size_t(N), 23, &hw);
  tg_buffer* B = alloc_random(a, DType::F16, size_t(N), 24, &hb);
  tg_buffer *H = nullptr, *Y = nullptr;
  ok(a, a.api->buffer_alloc(a.device, bytes, &H), "alloc");
  ok(a, a.api->buffer_alloc(a.device, bytes, &Y), "alloc");
  double copy_ms = time_ms(a, 10, 100, [&] { ok(a, a.api->copy_d2d(a.queue, Y, 0, X, 0, bytes), "copy_d2d"); });
  double copy_tbps = 2.0 * double(bytes) / (copy_ms * 1e-3) / 1e12;
  struct Variant {
    const char* file;
    bool example;
    int threads, min_blocks;
  };
  const Variant variants[] = {{"bench/cuda/layernorm_residual_h200.tile", false, 256, 2},
                              {"bench/cuda/layernorm_residual_h200.tile", false, 512, 2},
                              {"bench/cuda/layernorm_residual_lean_h200.tile", false, 256, 3},
                              {"bench/cuda/layernorm_residual_lean_h200.tile", false, 512, 2},
                              {"bench/cuda/layernorm_residual_lean_h200.tile", false, 512, 3},
                              {"bench/cuda/layernorm_residual_lean_h200.tile", false, 1024, 1},
                              {"bench/cuda/layernorm_residual_lean_h200.tile", false, 1024, 2},
                              {"examples/norm/layernorm_residual.tile", true, 0, 2}};
  for (const Variant& v : variants) {
    std::string text = read(v.file), name = v.file;
    if (!v.example) {
      size_t p = text.find("threads(256)");
      text.replace(p, 12, "threads(" + std::to_string(v.threads) + ")");
      name += " threads(" + std::to_string(v.threads) + ")";
    }
    name += " min_blocks_per_sm=" + std::to_string(v.min_blocks);
    ir::LowerOptions o;
    if (v.example) o.divisibility = {{"N", 16}};
    Kernel k = compile(a, text, o, "min_blocks_per_sm=" + std::to_string(v.min_blocks) + "\n");
    std::vector<tg_launch_arg> args = {tensor(X), tensor(R), tensor(W), tensor(B), tensor(H), tensor(Y), integer(M)};
    if (v.example) args.push_back(integer(N));
    uint32_t gx = v.example ? uint32_t(M / 4) : uint32_t(M);
    std::vector<uint8_t> poison(bytes, 0xff);  // NaN in f16: a row the kernel skips cannot pass
    ok(a, a.api->copy_h2d(a.queue, H, 0, poison.data(), bytes), "copy_h2d");
    ok(a, a.api->copy_h2d(a.queue, Y, 0, poison.data(), bytes), "copy_h2d");
    double ms = time_ms(a, 10, 100, [&] { launch(a, k, args, gx, 1); });
    double burst = time_ms(a, 3, 20, [&] {
                     for (int i = 0; i < 10; ++i) launch(a, k, args, gx, 1);
                   }) / 10;  // as peer_torch.py's ms_burst10
    double tbps = 4.0 * double(bytes) / (ms * 1e-3) / 1e12;
    std::vector<uint8_t> hh(bytes), hy(bytes);
    ok(a, a.api->copy_d2h(a.queue, hh.data(), H, 0, bytes), "copy_d2h");
    ok(a, a.api->copy_d2h(a.queue, hy.data(), Y, 0, bytes), "copy_d2h");
    ok(a, a.api->queue_synchronize(a.queue), "synchronize");
    int64_t wrong_h = 0;
    for (int64_t i = 0; i < M * N; ++i)
      wrong_h += f16_at(hh, i) != round_to_dtype(DType::F16, double(float(f16_at(hx, i)) + float(f16_at(hr, i))));
    // Y against LayerNorm of the H the kernel wrote (checked exactly above).
    double worst = 0;
    for (int64_t r = 0; r < M; r += M / 8) worst = worse(worst, norm_row_error(hh, hw, hb, hy, r, N, true));
    std::printf("{\"bench\":\"layernorm_residual\",\"kernel\":\"%s\",\"m\":%lld,\"n\":%lld,\"ms\":%.4f,\"ms_burst10\":%.4f,\"tbps\":%.3f,"
                "\"vs_copy\":%.3f,\"compile_ms\":%.0f,\"wrong_h\":%lld,\"max_rel_err\":%.2e}\n",
                name.c_str(), (long long)M, (long long)N, ms, burst, tbps, tbps / copy_tbps, k.compile_ms, (long long)wrong_h, worst);
    std::fflush(stdout);
    a.api->executable_free(k.exe);
  }
  for (tg_buffer* b : {X, R, W, B, H, Y}) a.api->buffer_free(b);
}

/// The W4A16 kernels (examples/quant/gemv_int4.tile's format) at n = k = 8192: X f16[m, k],
/// W i32[n, k / 8] of random bits, S f16[k / 128, n], Y f16[m, n]. Bytes are what the kernel
/// must read and write (weights, scales, X and Y once).
void bench_int4(Api& a) {
  const int64_t N = 8192, K = 8192, KW = K / 8, G = K / 128;
  std::vector<uint8_t> hw(size_t(N * KW) * 4);
  std::mt19937_64 bits(11);
  for (size_t i = 0; i < hw.size(); i += 8) {
    uint64_t r = bits();
    std::memcpy(hw.data() + i, &r, 8);
  }
  tg_buffer* W = nullptr;
  ok(a, a.api->buffer_alloc(a.device, hw.size(), &W), "buffer_alloc");
  ok(a, a.api->copy_h2d(a.queue, W, 0, hw.data(), hw.size()), "copy_h2d");
  std::vector<uint8_t> hs, hx;
  tg_buffer* S = alloc_random(a, DType::F16, size_t(G * N), 12, &hs);
  const int64_t max_m = 4096;
  tg_buffer* X = alloc_random(a, DType::F16, size_t(max_m * K), 13, &hx);
  tg_buffer* Y = nullptr;
  ok(a, a.api->buffer_alloc(a.device, size_t(max_m * N) * 2, &Y), "alloc");
  struct Variant {
    const char* file;
    int64_t m;
    int rows, cols;  ///< the block's tile of Y (grid = ceildiv(N, cols) x ceildiv(M, rows))
  };
  const Variant variants[] = {
      {"bench/cuda/gemv_int4_h200.tile", 1, 1, 32},       {"examples/quant/gemv_int4.tile", 1, 1, 32},
      {"bench/cuda/gemv_int4_h200.tile", 16, 1, 32},      {"examples/quant/gemm_int4.tile", 16, 64, 128},
      {"bench/cuda/gemm_int4_h200.tile", 4096, 128, 128}, {"bench/cuda/gemm_int4_f16w_h200.tile", 4096, 256, 128}};
  for (const Variant& v : variants) {
    ir::LowerOptions o;
    o.divisibility = {{"N", 16}, {"K", 16}, {"KW", 16}, {"G", 16}};
    if (v.m % 16 == 0) o.divisibility["M"] = 16;
    o.raster_group = v.rows > 1 ? 8 : 0;
    Kernel k = compile(a, read(v.file), o, "min_blocks_per_sm=" + std::string(v.rows > 1 ? "1" : "2") + "\n");
    std::vector<tg_launch_arg> args = {tensor(X),  tensor(W),  tensor(S),   tensor(Y), integer(v.m),
                                       integer(K), integer(N), integer(KW), integer(G)};
    uint32_t gx = uint32_t(N / v.cols), gy = uint32_t((v.m + v.rows - 1) / v.rows);
    double ms = time_ms(a, 10, v.m >= 4096 ? 30 : 100, [&] { launch(a, k, args, gx, gy); });
    double bytes = double(hw.size() + hs.size()) + double(v.m * (K + N)) * 2;
    double tbps = bytes / (ms * 1e-3) / 1e12, tflops = 2.0 * double(v.m * N * K) / (ms * 1e-3) / 1e12;
    // Spot check: 64 outputs against float64 sums over the exactly dequantised weights.
    std::vector<uint8_t> hy(size_t(v.m * N) * 2);
    ok(a, a.api->copy_d2h(a.queue, hy.data(), Y, 0, hy.size()), "copy_d2h");
    ok(a, a.api->queue_synchronize(a.queue), "synchronize");
    std::mt19937_64 rng(7);
    double worst = 0;
    for (int s = 0; s < 64; ++s) {
      int64_t i = int64_t(rng() % uint64_t(v.m)), j = int64_t(rng() % uint64_t(N));
      double want = 0, mag = 0;
      for (int64_t kk = 0; kk < K; ++kk) {
        uint32_t word = 0;
        std::memcpy(&word, hw.data() + size_t(j * KW + kk / 8) * 4, 4);
        double q = double((word >> (4 * (kk % 8))) & 15u);
        double term = f16_at(hx, i * K + kk) * (q - 8) * f16_at(hs, (kk / 128) * N + j);
        want += term;
        mag += std::fabs(term);
      }
      worst = std::max(worst, std::fabs(f16_at(hy, i * N + j) - want) / (std::fabs(want) + 1e-3 * mag));
    }
    std::printf("{\"bench\":\"int4\",\"kernel\":\"%s\",\"m\":%lld,\"n\":%lld,\"k\":%lld,", v.file, (long long)v.m,
                (long long)N, (long long)K);
    std::printf("\"ms\":%.4f,\"tbps\":%.3f,\"tflops\":%.1f,\"compile_ms\":%.0f,\"max_rel_err\":%.2e}\n", ms, tbps,
                tflops, k.compile_ms, worst);
    std::fflush(stdout);
    a.api->executable_free(k.exe);
  }
  for (tg_buffer* b : {X, W, S, Y}) a.api->buffer_free(b);
}

/// Worst error of query rows of one (batch, head) against float64: O's columns relative to
/// sum_j p_j |v_j|, L absolute. Q, K, V, O are [B, H, S, D] bf16, L [B, H, S] f32.
double attention_row_error(const std::vector<uint8_t>& hq, const std::vector<uint8_t>& hk, const std::vector<uint8_t>& hv,
                           const std::vector<uint8_t>& ho, const std::vector<uint8_t>& hl, int64_t head, int64_t i, int64_t S,
                           int64_t D, double scale, bool causal) {
  auto bf = [](const std::vector<uint8_t>& h, int64_t at) { return load_element(DType::BF16, h.data() + size_t(2 * at)); };
  int64_t keys = causal ? i + 1 : S, base = head * S * D;
  std::vector<double> p(static_cast<size_t>(keys));
  double mx = -INFINITY, sum = 0;
  for (int64_t j = 0; j < keys; ++j) {
    double dot = 0;
    for (int64_t c = 0; c < D; ++c) dot += bf(hq, base + i * D + c) * bf(hk, base + j * D + c);
    mx = std::max(mx, p[size_t(j)] = scale * dot);
  }
  for (int64_t j = 0; j < keys; ++j) sum += (p[size_t(j)] = std::exp(p[size_t(j)] - mx));
  double worst = 0;
  for (int64_t c = 0; c < D; ++c) {
    double want = 0, mag = 0;
    for (int64_t j = 0; j < keys; ++j) {
      want += p[size_t(j)] * bf(hv, base + j * D + c) / sum;
      mag += p[size_t(j)] * std::fabs(bf(hv, base + j * D + c)) / sum;
    }
    worst = std::max(worst, std::fabs(bf(ho, base + i * D + c) - want) / (mag + 1e-6));
  }
  double lse = load_element(DType::F32, hl.data() + size_t(4 * (head * S + i)));
  return std::max(worst, std::fabs(lse - (mx + std::log(sum))));
}

/// The attention kernels measured for head dim `d`: the examples, or with TEGULA_BENCH_ATTN_DIR
/// set, every flash_attn_*d<d>_*.tile there (variants from bench/cuda/gen_attention_variants.py).
std::vector<std::string> attention_files(int64_t d) {
  std::string dd = "d" + std::to_string(d);
  const char* dir = std::getenv("TEGULA_BENCH_ATTN_DIR");
  if (!dir) return {"examples/attention/flash_attn_" + dd + ".tile", "examples/attention/flash_attn_causal_" + dd + ".tile"};
  std::vector<std::string> files;
  std::string root = dir[0] == '/' ? "" : std::string(TEGULA_SOURCE_DIR) + "/";
  for (const auto& e : std::filesystem::directory_iterator(root + dir)) {
    std::string name = e.path().filename().string();
    if (name.rfind("flash_attn_", 0) == 0 && name.find(dd + "_") != std::string::npos) files.push_back(std::string(dir) + "/" + name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Rows of Q per block: the first extent of the shared tile Q is copied into.
int64_t query_block_rows(const ir::Kernel& k) {
  for (const ir::Stmt& s : k.body.stmts)
    if (s.op == ir::OpKind::Alloc && s.name == "Qs") return s.type.shape[0];
  die("no Qs tile in " + k.name);
}

/// FlashAttention forward (examples/attention) on the shapes of the bar: bf16 [B, H, S, D],
/// non-causal and causal; TFLOP/s count 4 B H S^2 D, halved for the causal mask.
void bench_attention(Api& a) {
  struct Shape {
    int64_t b, h, s, d;
  };
  for (Shape sh : {Shape{8, 16, 4096, 128}, Shape{16, 16, 2048, 64}}) {
    size_t n = size_t(sh.b * sh.h * sh.s * sh.d);
    std::vector<uint8_t> hq, hk, hv;
    tg_buffer* Q = alloc_random(a, DType::BF16, n, 11, &hq);
    tg_buffer* K = alloc_random(a, DType::BF16, n, 12, &hk);
    tg_buffer* V = alloc_random(a, DType::BF16, n, 13, &hv);
    tg_buffer *O = nullptr, *L = nullptr;
    ok(a, a.api->buffer_alloc(a.device, n * 2, &O), "alloc");
    ok(a, a.api->buffer_alloc(a.device, size_t(sh.b * sh.h * sh.s) * 4, &L), "alloc");
    double scale = 1.0 / std::sqrt(double(sh.d));
    for (const std::string& file : attention_files(sh.d)) {
      bool causal = file.find("causal") != std::string::npos;
      ir::LowerOptions o;
      o.divisibility = {{"S", 16}};
      Kernel k = compile(a, read(file), o);
      std::vector<tg_launch_arg> args = {tensor(Q), tensor(K), tensor(V), tensor(O), tensor(L), number(scale),
                                         integer(sh.b), integer(sh.h), integer(sh.s)};
      int64_t bm = query_block_rows(k.ir);
      uint32_t gx = uint32_t((sh.s + bm - 1) / bm);
      double ms = time_ms(a, 3, 20, [&] { launch(a, k, args, gx, uint32_t(sh.h), uint32_t(sh.b)); });
      double flops = 4.0 * double(sh.b * sh.h) * double(sh.s) * double(sh.s) * double(sh.d) / (causal ? 2 : 1);
      std::vector<uint8_t> ho(n * 2), hl(size_t(sh.b * sh.h * sh.s) * 4);
      ok(a, a.api->copy_d2h(a.queue, ho.data(), O, 0, ho.size()), "copy_d2h");
      ok(a, a.api->copy_d2h(a.queue, hl.data(), L, 0, hl.size()), "copy_d2h");
      ok(a, a.api->queue_synchronize(a.queue), "synchronize");
      double worst = 0;
      for (int64_t probe = 0; probe < 6; ++probe) {
        int64_t head = (probe * 37) % (sh.b * sh.h), i = (probe * 1237 + 5) % sh.s;
        worst = std::max(worst, attention_row_error(hq, hk, hv, ho, hl, head, i, sh.s, sh.d, scale, causal));
      }
      std::printf("{\"bench\":\"attention\",\"kernel\":\"%s\",\"b\":%lld,\"h\":%lld,\"s\":%lld,\"d\":%lld,\"causal\":%s,"
                  "\"ms\":%.4f,\"tflops\":%.1f,\"compile_ms\":%.0f,\"max_err\":%.2e}\n",
                  file.c_str(), (long long)sh.b, (long long)sh.h, (long long)sh.s, (long long)sh.d, causal ? "true" : "false", ms,
                  flops / (ms * 1e-3) / 1e12, k.compile_ms, worst);
      std::fflush(stdout);
      a.api->executable_free(k.exe);
    }
    for (tg_buffer* b : {Q, K, V, O, L}) a.api->buffer_free(b);
  }
}

/// Cold compile and warm-cache load through the public runtime, and host launch overhead.
void bench_runtime() {
  std::string cache = (std::filesystem::temp_directory_path() / ("tegula-bench-cache-" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(cache);
  RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/cuda.json"};
  o.ignore_environment = true;
  o.cache_dir = cache;
  const char* files[] = {"examples/elementwise/silu_mul.tile", "examples/reduce/row_sum.tile", "examples/softmax/softmax_rows.tile",
                         "examples/gemm/gemm_bf16.tile", "bench/cuda/gemm_bf16_h200.tile", "bench/cuda/softmax_row_h200.tile"};
  for (int pass = 0; pass < 2; ++pass) {
    auto rt = Runtime::open(o);
    if (!rt.is_ok()) die(rt.status().str());
    auto dev = rt->find_device("cuda");
    if (!dev.is_ok()) die(dev.status().str());
    for (const char* f : files) {
      std::string text = read(f);
      auto start = Clock::now();
      auto k = dev->compile(text);
      double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (!k.is_ok()) die(k.status().str());
      std::printf("{\"bench\":\"%s\",\"kernel\":\"%s\",\"ms\":%.2f,\"cache\":\"%s\"}\n", pass == 0 ? "compile_cold" : "load_warm", f, ms,
                  k->cache_result() == TEGULA_CACHE_HIT ? "hit" : "miss");
    }
  }
  // Launch overhead: a one-block kernel, many launches, host time per call.
  auto rt = Runtime::open(o);
  auto dev = rt->find_device("cuda");
  std::string tiny = "kernel tiny(X: f32[N]) grid(1) threads(32) {\n  alloc x: fragment f32[32]\n  fill x, 1.0\n  copy x, X[0]\n}\n";
  auto k = dev->compile(tiny);
  if (!k.is_ok()) die(k.status().str());
  auto buf = dev->alloc(32 * 4);
  const int n = 20000;
  for (int i = 0; i < 100; ++i) (void)k->launch({Arg::tensor(*buf), Arg::integer(32)});
  (void)dev->synchronize();
  auto start = Clock::now();
  for (int i = 0; i < n; ++i) {
    Status st = k->launch({Arg::tensor(*buf), Arg::integer(32)});
    if (!st.is_ok()) die(st.str());
  }
  double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count() / n;
  (void)dev->synchronize();
  std::printf("{\"bench\":\"launch_overhead\",\"path\":\"tegula_launch\",\"us_per_launch\":%.3f}\n", us);

  // The same kernel, compiled by the same code generator, through a bare cuLaunchKernel.
  const cuda::Driver* d = cuda::load_driver(nullptr);
  if (!d) die("no driver");
  auto info = dev->info();
  auto target = builtin_target(info->target);
  auto parsed = ir::parse_and_verify(tiny, "tiny.tile");
  auto lowered = ir::lower(*parsed, *target);
  std::string arch = "sm_90a";
  {
    int major = 0, minor = 0;
    cuda::CUdevice cd0 = 0;
    d->cuDeviceGet(&cd0, 0);
    d->cuDeviceGetAttribute(&major, cuda::kAttrComputeCapabilityMajor, cd0);
    d->cuDeviceGetAttribute(&minor, cuda::kAttrComputeCapabilityMinor, cd0);
    arch = "sm_" + std::to_string(major) + std::to_string(minor) + (major >= 9 && major <= 10 ? "a" : "");
  }
  auto exe = cuda::compile_lowered(ir::print_kernel(lowered->kernel), *target, arch);
  if (!exe.is_ok()) die(exe.status().str());
  const cuda::Executable& ex = exe->executable;
  cuda::CUcontext ctx = nullptr;
  cuda::CUdevice cd = 0;
  d->cuDeviceGet(&cd, 0);
  d->cuDevicePrimaryCtxRetain(&ctx, cd);
  d->cuCtxSetCurrent(ctx);
  cuda::CUmodule mod = nullptr;
  cuda::CUfunction fn = nullptr;
  if (d->cuModuleLoadData(&mod, ex.cubin.data()) || d->cuModuleGetFunction(&fn, mod, ex.info.name.c_str())) die("bare load failed");
  cuda::CUstream stream = nullptr;
  d->cuStreamCreate(&stream, cuda::kStreamNonBlocking);
  cuda::CUdeviceptr p = 0;
  d->cuMemAlloc(&p, 128);
  long long nn = 32;
  void* params[] = {&p, &nn};
  for (int i = 0; i < 100; ++i) d->cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, nullptr);
  d->cuStreamSynchronize(stream);
  start = Clock::now();
  for (int i = 0; i < n; ++i) d->cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, nullptr);
  double bare = std::chrono::duration<double, std::micro>(Clock::now() - start).count() / n;
  d->cuStreamSynchronize(stream);
  std::printf("{\"bench\":\"launch_overhead\",\"path\":\"cuLaunchKernel\",\"us_per_launch\":%.3f}\n", bare);
  d->cuMemFree(p);
  d->cuStreamDestroy(stream);
  d->cuModuleUnload(mod);
  std::filesystem::remove_all(cache);
}

}  // namespace

int main(int argc, char** argv) {
  std::string only = argc > 1 ? argv[1] : "all";
  if (only == "mla") {
    tegula::bench::bench_mla();
    return 0;
  }
  if (only == "mamba2") {
    tegula::bench::bench_mamba2();
    return 0;
  }
  Api a = open_plugin(std::string(TEGULA_BINARY_DIR) + "/lib/libtegula_cuda.so");
  if (only == "all" || only == "gemm") {
    for (int64_t n : {4096, 8192})
      for (const char* dt : {"bf16", "f16"}) bench_gemm(a, dt, n);
  }
  if (only == "all" || only == "gemm" || only == "fp8") bench_gemm(a, "e4m3", 8192);
  if (only == "all" || only == "softmax") bench_softmax(a);
  if (only == "all" || only == "norm") bench_norm(a);
  if (only == "all" || only == "norm") bench_norm_residual(a);
  if (only == "all" || only == "int4") bench_int4(a);
  if (only == "attention") bench_attention(a);  // not in "all": run_all.sh's attnbench step
  a.api->queue_destroy(a.queue);
  a.api->device_close(a.device);
  a.api->shutdown(a.plugin);
  if (only == "all" || only == "runtime") bench_runtime();
  if (only == "all") tegula::bench::bench_mla();
  return 0;
}
