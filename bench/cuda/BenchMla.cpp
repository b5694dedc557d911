#include "bench/cuda/BenchMla.h"

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

constexpr int64_t kH = 128, kD = 576, kDv = 512, kPage = 64;
// Batch and cache length: 64 and 4096, or TEGULA_BENCH_MLA_B and _L (a multiple of 64) for a
// smoke run on another device (TEGULA_BENCH_MLA_DEVICE, e.g. cpu).
int64_t kB = 64, kL = 4096;

int64_t env_or(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoll(v) : fallback;
}

template <typename T>
T must(Result<T> r, const char* what) {
  if (!r.is_ok()) {
    std::fprintf(stderr, "bench mla: %s: %s\n", what, r.status().str().c_str());
    std::exit(1);
  }
  return std::move(*r);
}

void must(const Status& s, const char* what) {
  if (s.is_ok()) return;
  std::fprintf(stderr, "bench mla: %s: %s\n", what, s.str().c_str());
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

std::vector<uint8_t> random_bf16(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<uint8_t> bytes(n * 2);
  for (size_t i = 0; i < n; ++i) store_element(DType::BF16, u(rng), bytes.data() + 2 * i);
  return bytes;
}

double bf16_at(const std::vector<uint8_t>& v, int64_t i) { return load_element(DType::BF16, v.data() + 2 * i); }

/// The worst of |got - want| / sum_j p_j |v_j| over 16 (sequence, head) pairs of O and every
/// 7th column, each computed in float64 from the host's Q and KV: the error against the scale
/// of the terms (O itself averages random values to near 0). P rounded to bf16 puts it near
/// 2^-9 at most; the tails and empty splits are the examples' tests' business (small shapes).
double spot_check(const std::vector<uint8_t>& q, const std::vector<uint8_t>& kv, const std::vector<uint8_t>& o,
                  double scale) {
  std::mt19937_64 rng(5);
  double worst = 0;
  std::vector<double> s(static_cast<size_t>(kL));
  for (int n = 0; n < 16; ++n) {
    int64_t b = int64_t(rng() % kB), h = int64_t(rng() % kH);
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < kL; ++j) {
      double dot = 0;
      for (int64_t c = 0; c < kD; ++c) dot += bf16_at(q, (b * kH + h) * kD + c) * bf16_at(kv, (b * kL + j) * kD + c);
      mx = std::max(mx, s[size_t(j)] = scale * dot);
    }
    for (double& x : s) sum += (x = std::exp(x - mx));
    for (int64_t c = 0; c < kDv; c += 7) {
      double want = 0, mag = 0;
      for (int64_t j = 0; j < kL; ++j) {
        want += s[size_t(j)] * bf16_at(kv, (b * kL + j) * kD + c) / sum;
        mag += s[size_t(j)] * std::fabs(bf16_at(kv, (b * kL + j) * kD + c)) / sum;
      }
      worst = std::max(worst, std::fabs(bf16_at(o, (b * kH + h) * kDv + c) - want) / mag);
    }
  }
  return worst;
}

}  // namespace

void bench_mla() {
  kB = env_or("TEGULA_BENCH_MLA_B", 64);
  kL = env_or("TEGULA_BENCH_MLA_L", 4096);
  const char* device = std::getenv("TEGULA_BENCH_MLA_DEVICE");
  RuntimeOptions ro;
  ro.manifest_paths = std::vector<std::string>{std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d"};
  ro.ignore_environment = true;
  ro.cache_dir = "off";
  Runtime rt = must(Runtime::open(ro), "open the runtime");
  Device dev = must(rt.find_device(device ? device : "cuda"), "find the device");
  const double scale = 1.0 / std::sqrt(double(kD));
  const int64_t max_splits = 8, pages = kB * kL / kPage, max_pages = kL / kPage;
  std::vector<uint8_t> hq = random_bf16(size_t(kB * kH * kD), 1), hkv = random_bf16(size_t(kB * kL * kD), 2);
  Buffer q = must(dev.alloc(hq.size()), "alloc"), kv = must(dev.alloc(hkv.size()), "alloc");
  Buffer kv_copy = must(dev.alloc(hkv.size()), "alloc");
  Buffer op = must(dev.alloc(uint64_t(kB * max_splits * kH * kDv * 4)), "alloc");
  Buffer lp = must(dev.alloc(uint64_t(kB * max_splits * kH * 4)), "alloc");
  Buffer o = must(dev.alloc(uint64_t(kB * kH * kDv * 2)), "alloc"), lse = must(dev.alloc(uint64_t(kB * kH * 4)), "alloc");
  // The paged cache is the dense one's memory as [B * L / 64, 64, 576] pages; the table lists
  // each sequence's pages in a shuffled order of the whole pool, with the cache's rows moved
  // to match, so the paged kernel reads the same keys from scattered pages.
  std::vector<int32_t> table(static_cast<size_t>(pages)), lengths(static_cast<size_t>(kB), int32_t(kL));
  for (int64_t p = 0; p < pages; ++p) table[size_t(p)] = int32_t(p);
  std::shuffle(table.begin(), table.end(), std::mt19937_64(3));
  std::vector<uint8_t> hpaged(hkv.size());
  const size_t page_bytes = size_t(kPage * kD * 2);
  for (int64_t p = 0; p < pages; ++p)
    std::copy_n(hkv.data() + size_t(p) * page_bytes, page_bytes, hpaged.data() + size_t(table[size_t(p)]) * page_bytes);
  Buffer paged = must(dev.alloc(hpaged.size()), "alloc"), t = must(dev.alloc(table.size() * 4), "alloc");
  Buffer ls = must(dev.alloc(lengths.size() * 4), "alloc");
  must(q.write(hq.data(), hq.size()), "write");
  must(kv.write(hkv.data(), hkv.size()), "write");
  must(paged.write(hpaged.data(), hpaged.size()), "write");
  must(t.write(table.data(), table.size() * 4), "write");
  must(ls.write(lengths.data(), lengths.size() * 4), "write");
  must(dev.synchronize(), "synchronize");

  const double kv_bytes = double(hkv.size());
  double copy_ms = median_ms(dev, 5, 50, [&] { must(kv_copy.copy_from(kv, hkv.size()), "copy"); });
  double copy_tbps = 2 * kv_bytes / (copy_ms * 1e-3) / 1e12;
  std::printf("{\"bench\":\"mla_d2d_copy\",\"bytes\":%.0f,\"ms\":%.4f,\"tbps\":%.3f}\n", kv_bytes, copy_ms, copy_tbps);

  auto report = [&](const char* kernel, int64_t splits, double ms) {
    std::vector<uint8_t> ho(size_t(kB * kH * kDv * 2));
    must(o.read(ho.data(), ho.size()), "read O");
    double tbps = kv_bytes / (ms * 1e-3) / 1e12;
    std::printf("{\"bench\":\"mla\",\"kernel\":\"%s\",\"b\":%lld,\"h\":%lld,\"l\":%lld,\"splits\":%lld,\"ms\":%.4f,"
                "\"kv_tbps\":%.3f,\"vs_copy\":%.3f,\"max_rel_err\":%.2e}\n",
                kernel, (long long)kB, (long long)kH, (long long)kL, (long long)splits, ms, tbps, tbps / copy_tbps,
                spot_check(hq, hkv, ho, scale));
    std::fflush(stdout);
  };

  Kernel whole = must(dev.compile(source("examples/mla/mla_decode.tile")), "compile mla_decode");
  double ms = median_ms(dev, 3, 20, [&] {
    must(whole.launch({{"Q", Arg::tensor(q)}, {"KV", Arg::tensor(kv)}, {"O", Arg::tensor(o)}, {"LSE", Arg::tensor(lse)},
                       {"scale", Arg::number(scale)}, {"B", Arg::integer(kB)}, {"H", Arg::integer(kH)},
                       {"L", Arg::integer(kL)}}),
         "launch");
  });
  report("examples/mla/mla_decode.tile", 1, ms);

  Kernel combine = must(dev.compile(source("examples/mla/mla_combine.tile")), "compile mla_combine");
  const char* splits_files[] = {"examples/mla/mla_decode_split.tile", "bench/cuda/mla_decode_split_h200.tile",
                                "examples/mla/mla_decode_paged_split.tile"};
  for (const char* file : splits_files) {
    Kernel split = must(dev.compile(source(file)), file);
    bool is_paged = std::string(file).find("paged") != std::string::npos;
    for (int64_t ns : {1, 2, 4, 8}) {
      std::vector<NamedArg> args = {{"Q", Arg::tensor(q)},      {"Op", Arg::tensor(op)},     {"Lp", Arg::tensor(lp)},
                                    {"scale", Arg::number(scale)}, {"B", Arg::integer(kB)}, {"H", Arg::integer(kH)},
                                    {"NS", Arg::integer(ns)}};
      if (is_paged) {
        args.insert(args.end(), {{"KV", Arg::tensor(paged)}, {"T", Arg::tensor(t)}, {"Ls", Arg::tensor(ls)},
                                 {"NP", Arg::integer(pages)}, {"MP", Arg::integer(max_pages)}});
      } else {
        args.insert(args.end(), {{"KV", Arg::tensor(kv)}, {"L", Arg::integer(kL)}});
      }
      std::vector<NamedArg> cargs = {{"Op", Arg::tensor(op)}, {"Lp", Arg::tensor(lp)}, {"O", Arg::tensor(o)},
                                     {"LSE", Arg::tensor(lse)}, {"B", Arg::integer(kB)}, {"H", Arg::integer(kH)},
                                     {"NS", Arg::integer(ns)}};
      ms = median_ms(dev, 3, 20, [&] {
        must(split.launch(args), "launch split");
        must(combine.launch(cargs), "launch combine");
      });
      report(file, ns, ms);
    }
  }
}

}  // namespace tegula::bench
