#include "bench/cuda/BenchMamba2.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Files.h"
#include "runtime/include/tegula/tegula.hpp"

namespace tegula::bench {
namespace {

// The kernels' fixed sizes: head dim P, state N, chunk Q (examples/mamba2); one group of B, C.
constexpr int64_t kP = 64, kN = 128, kQ = 64, kG = 1;
// Batch, sequence and heads: 4, 4096 and 32, or TEGULA_BENCH_MAMBA2_B, _L and _H for a smoke
// run on another device (TEGULA_BENCH_MAMBA2_DEVICE, e.g. cpu).
int64_t kB = 4, kL = 4096, kH = 32;

int64_t env_or(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoll(v) : fallback;
}

template <typename T>
T must(Result<T> r, const char* what) {
  if (!r.is_ok()) {
    std::fprintf(stderr, "bench mamba2: %s: %s\n", what, r.status().str().c_str());
    std::exit(1);
  }
  return std::move(*r);
}

void must(const Status& s, const char* what) {
  if (s.is_ok()) return;
  std::fprintf(stderr, "bench mamba2: %s: %s\n", what, s.str().c_str());
  std::exit(1);
}

std::string source(const std::string& rel) {
  return must(read_file(std::string(TEGULA_SOURCE_DIR) + "/" + rel), rel.c_str());
}

/// Median milliseconds of `fn` over `reps` runs after `warm`, each timed by device events.
double median_ms(Device& dev, int warm, int reps, const std::function<void()>& fn) {
  for (int i = 0; i < warm; ++i) fn();
  must(dev.synchronize(), "synchronize");
  Event a = must(dev.create_event(), "event"), b = must(dev.create_event(), "event");
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    must(a.record(), "record");
    fn();
    must(b.record(), "record");
    must(b.synchronize(), "event synchronize");
    times.push_back(must(Event::elapsed_ms(a, b), "elapsed"));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// n values uniform over [lo, hi) in dtype d's encoding.
std::vector<uint8_t> random_values(DType d, size_t n, double lo, double hi, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  const size_t size = dtype_size(d);
  std::vector<uint8_t> bytes(n * size);
  for (size_t i = 0; i < n; ++i) store_element(d, u(rng), bytes.data() + size * i);
  return bytes;
}

double at(DType d, const std::vector<uint8_t>& v, int64_t i) {
  return load_element(d, v.data() + size_t(i) * dtype_size(d));
}

struct Inputs {
  std::vector<uint8_t> x, a, b, c;  // X, B, C bf16 (head-major, [B, H, L, P] and [B, G, L, N]); A f32 [B, H, L]
};

/// The worst of |got - want| / sum_n |C_t[n]| |h|_t[n, p] over 4 (batch, head) pairs, every
/// step and every 7th column of Y, the recurrence h_t = exp(A_t) h_{t-1} + B_t x_t^T, y_t =
/// C_t h_t run in float64 from the host's inputs (|h| the same on absolute terms): the error
/// against the scale of the terms. The bf16 roundings of the kernels' gemm operands put it
/// near 2^-8 at most; tails and edge shapes are the examples' tests' business.
double spot_check(const Inputs& in, const std::vector<uint8_t>& y) {
  std::mt19937_64 rng(7);
  double worst = 0;
  std::vector<double> h(size_t(kN * kP)), habs(size_t(kN * kP));
  for (int n = 0; n < 4; ++n) {
    int64_t b = int64_t(rng() % kB), hd = int64_t(rng() % kH), g = hd / (kH / kG);
    std::fill(h.begin(), h.end(), 0.0);
    std::fill(habs.begin(), habs.end(), 0.0);
    for (int64_t t = 0; t < kL; ++t) {
      double decay = std::exp(at(DType::F32, in.a, (b * kH + hd) * kL + t));
      for (int64_t i = 0; i < kN; ++i) {
        double bi = at(DType::BF16, in.b, ((b * kG + g) * kL + t) * kN + i);
        for (int64_t p = 0; p < kP; p += 7) {
          double xp = at(DType::BF16, in.x, ((b * kH + hd) * kL + t) * kP + p);
          h[size_t(i * kP + p)] = decay * h[size_t(i * kP + p)] + bi * xp;
          habs[size_t(i * kP + p)] = decay * habs[size_t(i * kP + p)] + std::fabs(bi * xp);
        }
      }
      for (int64_t p = 0; p < kP; p += 7) {
        double want = 0, mag = 0;
        for (int64_t i = 0; i < kN; ++i) {
          double ci = at(DType::BF16, in.c, ((b * kG + g) * kL + t) * kN + i);
          want += ci * h[size_t(i * kP + p)];
          mag += std::fabs(ci) * habs[size_t(i * kP + p)];
        }
        double got = at(DType::BF16, y, ((b * kH + hd) * kL + t) * kP + p);
        double err = std::fabs(got - want) / (mag + 1e-30);
        worst = std::isnan(err) ? INFINITY : std::max(worst, err);  // NaN: an element never written
      }
    }
  }
  return worst;
}

}  // namespace

void bench_mamba2() {
  kB = env_or("TEGULA_BENCH_MAMBA2_B", 4);
  kL = env_or("TEGULA_BENCH_MAMBA2_L", 4096);
  kH = env_or("TEGULA_BENCH_MAMBA2_H", 32);
  const char* device = std::getenv("TEGULA_BENCH_MAMBA2_DEVICE");
  RuntimeOptions ro;
  ro.manifest_paths = std::vector<std::string>{std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d"};
  ro.ignore_environment = true;
  ro.cache_dir = "off";
  Runtime rt = must(Runtime::open(ro), "open the runtime");
  Device dev = must(rt.find_device(device ? device : "cuda"), "find the device");
  const int64_t chunks = (kL + kQ - 1) / kQ, cn = chunks * kN;
  // Log-decays dt * A as a trained Mamba-2 has them: negative, from slow to fast.
  Inputs in{random_values(DType::BF16, size_t(kB * kH * kL * kP), -1, 1, 1),
            random_values(DType::F32, size_t(kB * kH * kL), -0.5, -0.001, 2),
            random_values(DType::BF16, size_t(kB * kG * kL * kN), -1, 1, 3),
            random_values(DType::BF16, size_t(kB * kG * kL * kN), -1, 1, 4)};
  Buffer x = must(dev.alloc(in.x.size()), "alloc"), a = must(dev.alloc(in.a.size()), "alloc");
  Buffer bm = must(dev.alloc(in.b.size()), "alloc"), cm = must(dev.alloc(in.c.size()), "alloc");
  Buffer y = must(dev.alloc(in.x.size()), "alloc");
  const uint64_t state_bytes = uint64_t(kB * kH * cn * kP * 4);
  Buffer st = must(dev.alloc(state_bytes), "alloc"), prev = must(dev.alloc(state_bytes), "alloc");
  Buffer fin = must(dev.alloc(uint64_t(kB * kH * kN * kP * 4)), "alloc");
  must(x.write(in.x.data(), in.x.size()), "write");
  must(a.write(in.a.data(), in.a.size()), "write");
  must(bm.write(in.b.data(), in.b.size()), "write");
  must(cm.write(in.c.data(), in.c.size()), "write");
  must(dev.synchronize(), "synchronize");

  // The chunked algorithm's gemms per (batch, head, chunk): C B^T (Q Q N), its product with X
  // (Q Q P), C with the entering state (Q N P) and the chunk's state B^T X (Q N P).
  const double flops = 2.0 * double(kB * kH * chunks) * kQ * (kQ * kN + kQ * kP + 2 * kN * kP);
  const double bytes = double(2 * in.x.size() + in.a.size() + in.b.size() + in.c.size());
  auto report = [&](const char* kernel, double ms) {
    std::vector<uint8_t> hy(in.x.size());
    must(y.read(hy.data(), hy.size()), "read Y");
    std::printf("{\"bench\":\"mamba2\",\"kernel\":\"%s\",\"b\":%lld,\"l\":%lld,\"h\":%lld,\"p\":%lld,\"n\":%lld,\"chunk\":%lld,"
                "\"ms\":%.4f,\"tflops\":%.1f,\"gbps\":%.0f,\"max_rel_err\":%.2e}\n",
                kernel, (long long)kB, (long long)kL, (long long)kH, (long long)kP, (long long)kN, (long long)kQ, ms,
                flops / (ms * 1e-3) / 1e12, bytes / (ms * 1e-3) / 1e9, spot_check(in, hy));
    std::fflush(stdout);
  };
  const std::vector<NamedArg> sizes = {{"B", Arg::integer(kB)}, {"H", Arg::integer(kH)}, {"L", Arg::integer(kL)},
                                       {"CN", Arg::integer(cn)}};
  auto with = [&](std::vector<NamedArg> args, bool groups, bool states) {
    for (const NamedArg& s : sizes)
      if (s.name != std::string("CN") || states) args.push_back(s);
    if (groups) args.push_back({"G", Arg::integer(kG)});
    return args;
  };
  Kernel state = must(dev.compile(source("examples/mamba2/mamba2_chunk_state.tile")), "compile chunk_state");
  Kernel passing = must(dev.compile(source("examples/mamba2/mamba2_state_passing.tile")), "compile state_passing");
  Kernel scan = must(dev.compile(source("examples/mamba2/mamba2_chunk_scan.tile")), "compile chunk_scan");
  Kernel fused = must(dev.compile(source("examples/mamba2/mamba2_ssd.tile")), "compile ssd");
  const auto state_args = with({{"X", Arg::tensor(x)}, {"A", Arg::tensor(a)}, {"Bm", Arg::tensor(bm)}, {"St", Arg::tensor(st)}}, true, true);
  const auto passing_args = with({{"St", Arg::tensor(st)}, {"A", Arg::tensor(a)}, {"Prev", Arg::tensor(prev)}, {"Fin", Arg::tensor(fin)}}, false, true);
  const auto scan_args = with({{"X", Arg::tensor(x)}, {"A", Arg::tensor(a)}, {"Bm", Arg::tensor(bm)}, {"Cm", Arg::tensor(cm)},
                               {"Prev", Arg::tensor(prev)}, {"Y", Arg::tensor(y)}}, true, true);
  const auto fused_args = with({{"X", Arg::tensor(x)}, {"A", Arg::tensor(a)}, {"Bm", Arg::tensor(bm)}, {"Cm", Arg::tensor(cm)},
                                {"Y", Arg::tensor(y)}, {"Fin", Arg::tensor(fin)}}, true, false);
  must(y.fill<uint16_t>(0xffff, 0, in.x.size()), "poison Y");
  double ms = median_ms(dev, 3, 20, [&] {
    must(state.launch(state_args), "launch chunk_state");
    must(passing.launch(passing_args), "launch state_passing");
    must(scan.launch(scan_args), "launch chunk_scan");
  });
  report("examples/mamba2 chunk_state + state_passing + chunk_scan", ms);
  // Each kernel alone (Y is the chain's from the last run).
  const std::pair<const char*, std::function<void()>> parts[] = {
      {"mamba2_chunk_state", [&] { must(state.launch(state_args), "launch chunk_state"); }},
      {"mamba2_state_passing", [&] { must(passing.launch(passing_args), "launch state_passing"); }},
      {"mamba2_chunk_scan", [&] { must(scan.launch(scan_args), "launch chunk_scan"); }}};
  for (const auto& [name, fn] : parts) {
    double part = median_ms(dev, 3, 20, fn);
    std::printf("{\"bench\":\"mamba2_part\",\"kernel\":\"%s\",\"ms\":%.4f}\n", name, part);
  }
  must(y.fill<uint16_t>(0xffff, 0, in.x.size()), "poison Y");  // a bf16 NaN: the fused kernel must write all of Y
  ms = median_ms(dev, 3, 20, [&] { must(fused.launch(fused_args), "launch ssd"); });
  report("examples/mamba2/mamba2_ssd.tile (fused)", ms);
}

}  // namespace tegula::bench
