/// \file
/// Shared pieces of the CPU benchmarks: the runtime with only the cpu plugin of this build,
/// timing (median of repeated runs after warm-up), the machine's description, and the rows
/// each section contributes to the report.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tegula/tegula.hpp"

namespace tegula::bench {

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Seconds one call of `f` takes.
inline double time_once(const std::function<void()>& f) {
  double t0 = now_seconds();
  f();
  return now_seconds() - t0;
}

struct Options {
  int reps = 9;           ///< timed runs per measurement (the median is reported)
  int warmup = 2;         ///< untimed runs first
  bool quick = false;     ///< smaller sizes, fewer runs (a smoke test of the benchmark)
  std::string out;        ///< markdown report path ("" = print only)
  std::string command;    ///< the command line, for the report
};

/// The runtime with this build's cpu plugin only; cache_dir "off" or a folder.
Result<Runtime> open_runtime(const std::string& cache_dir);
Result<std::string> kernel_text(const std::string& relative_path);  ///< from the source tree

struct Machine {
  std::string model;   ///< lscpu's model name
  uint32_t cores = 0;  ///< usable cores
  std::string flags;   ///< a few ISA flags
  std::string date;    ///< UTC, YYYY-MM-DD HH:MM
  std::string load;    ///< /proc/loadavg at the start
};
Machine describe_machine();

/// One section of the report: a markdown table and notes.
struct Section {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;
};

std::string fmt(double value, int decimals);

// The sections.
Result<Section> bench_gemm(const Options& o);
Result<Section> bench_rows(const Options& o);
Result<Section> bench_compile(const Options& o);

/// The gemm rows measured in a child process with OPENBLAS_CORETYPE set (OpenBLAS reads it
/// only when it loads), or an empty list when the detected core needs no second run.
Result<std::vector<std::vector<std::string>>> gemm_rows_with_core(const Options& o, const std::string& core);

}  // namespace tegula::bench
