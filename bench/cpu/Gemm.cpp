/// \file
/// f32 gemm on cpu:0 against OpenBLAS sgemm with the same number of threads: the hand-picked
/// bench/cpu/kernels/sgemm_f32.tile, and examples/gemm/gemm_tuned_f32.tile with the binding
/// `tegula tune` measured for each size (issue 18: the file with no hand-picked schedule,
/// tuned on the CPU, against OpenBLAS). Runs alternate between the three, so that a busy
/// machine slows all alike; the report gives the median of each and the ratios of medians.
#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "bench/cpu/Bench.h"
#include "core/Random.h"

extern "C" {
char* openblas_get_corename(void);
void openblas_set_num_threads(int threads);
int openblas_get_num_threads(void);
}

namespace tegula::bench {
namespace {

constexpr const char* kTunedFile = "examples/gemm/gemm_tuned_f32.tile";

/// The compile cache the tuned kernel's choices live in: one folder per benchmark run, which
/// the OPENBLAS_CORETYPE child reuses (TEGULA_BENCH_TUNE_DIR), so each size is tuned once.
Result<std::string> tune_dir() {
  if (const char* dir = std::getenv("TEGULA_BENCH_TUNE_DIR")) return std::string(dir);
  char templ[] = "/tmp/tegula-bench-tune-XXXXXX";
  if (!mkdtemp(templ)) return error(ErrorCode::Io, "cannot create a folder under /tmp for the tuned kernel's cache");
  setenv("TEGULA_BENCH_TUNE_DIR", templ, 1);
  return std::string(templ);
}

/// `tegula tune` of the tuned file at n^3 on cpu:0, recorded in the cache folder `dir` (a
/// class already measured there is not measured again): what to say of it in the report.
Result<std::string> tune_size(const std::string& dir, int64_t n, bool quick) {
  std::string dim = std::to_string(n);
  std::string cmd = "TEGULA_CACHE_DIR='" + dir + "' '" + std::string(TEGULA_BINARY_DIR) + "/bin/tegula' tune '" +
                    std::string(TEGULA_SOURCE_DIR) + "/" + kTunedFile + "' --device cpu:0 --bind M=" + dim + ",N=" + dim +
                    ",K=" + dim + " --top " + (quick ? "2" : "8") + " --repeat 3 2>&1";
  double start = now_seconds();
  FILE* child = popen(cmd.c_str(), "r");
  if (!child) return error(ErrorCode::Io, "cannot run " + cmd);
  std::string output;
  char line[1024];
  while (std::fgets(line, sizeof line, child)) output += line;
  if (pclose(child) != 0) return error(ErrorCode::Io, "'" + cmd + "' failed:\n" + output);
  if (output.find("cached: ") != std::string::npos) return std::string("found in the cache, tuned for the rows above");
  return "tuned in " + fmt(now_seconds() - start, 1) + " s";
}

Result<std::vector<std::vector<std::string>>> gemm_rows(const Options& o) {
  Machine machine = describe_machine();
  openblas_set_num_threads(int(machine.cores));
  // One runtime for both kernels: a second would start a second pool of worker threads on
  // the same cores.
  TG_ASSIGN_OR_RETURN(std::string dir, tune_dir());
  TG_ASSIGN_OR_RETURN(Runtime rt, open_runtime(dir));
  TG_ASSIGN_OR_RETURN(Device dev, rt.find_device("cpu:0"));
  TG_ASSIGN_OR_RETURN(std::string text, kernel_text("bench/cpu/kernels/sgemm_f32.tile"));
  TG_ASSIGN_OR_RETURN(Kernel kernel, dev.compile(text));
  TG_ASSIGN_OR_RETURN(std::string tuned_text, kernel_text(kTunedFile));
  CompileOptions tuned_options;
  tuned_options.source_name = kTunedFile;
  TG_ASSIGN_OR_RETURN(Kernel tuned, dev.compile(tuned_text, tuned_options));
  std::vector<std::vector<std::string>> rows;
  std::vector<int64_t> sizes = o.quick ? std::vector<int64_t>{256, 512} : std::vector<int64_t>{1024, 2048};
  for (int64_t n : sizes) {
    size_t count = size_t(n * n);
    std::vector<float> a(count), b(count), c(count), ref(count);
    Rng rng{uint64_t(n)};
    for (float& x : a) x = float(rng.uniform(-1, 1));
    for (float& x : b) x = float(rng.uniform(-1, 1));
    TG_ASSIGN_OR_RETURN(Buffer ba, dev.alloc(count * 4));
    TG_ASSIGN_OR_RETURN(Buffer bb, dev.alloc(count * 4));
    TG_ASSIGN_OR_RETURN(Buffer bc, dev.alloc(count * 4));
    TG_RETURN_IF_ERROR(ba.write(a));
    TG_RETURN_IF_ERROR(bb.write(b));
    std::vector<Arg> args = {Arg::tensor(ba), Arg::tensor(bb), Arg::tensor(bc), Arg::integer(n), Arg::integer(n), Arg::integer(n)};
    TG_ASSIGN_OR_RETURN(std::string tune_note, tune_size(dir, n, o.quick));
    // The tuned kernel reads the same inputs and writes its own poisoned output.
    TG_ASSIGN_OR_RETURN(Buffer tc, dev.alloc(count * 4));
    std::vector<float> poison(count, std::nanf(""));
    TG_RETURN_IF_ERROR(bc.write(poison));
    TG_RETURN_IF_ERROR(tc.write(poison));
    std::vector<Arg> tuned_args = {Arg::tensor(ba), Arg::tensor(bb), Arg::tensor(tc), Arg::integer(n), Arg::integer(n), Arg::integer(n)};
    Status launched = Status::ok();
    auto ours = [&] {
      launched = kernel.launch(args);
      if (launched.is_ok()) launched = dev.synchronize();
    };
    auto tuned_run = [&] {
      launched = tuned.launch(tuned_args);
      if (launched.is_ok()) launched = dev.synchronize();
    };
    auto theirs = [&] {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(n), int(n), int(n), 1.0f, a.data(), int(n), b.data(), int(n),
                  0.0f, ref.data(), int(n));
    };
    for (int i = 0; i < o.warmup; ++i) {
      ours();
      TG_RETURN_IF_ERROR(launched);
      tuned_run();
      TG_RETURN_IF_ERROR(launched);
      theirs();
    }
    std::vector<double> t_ours, t_tuned, t_theirs;
    for (int i = 0; i < o.reps; ++i) {
      t_ours.push_back(time_once(ours));
      TG_RETURN_IF_ERROR(launched);
      t_tuned.push_back(time_once(tuned_run));
      TG_RETURN_IF_ERROR(launched);
      t_theirs.push_back(time_once(theirs));
    }
    TG_RETURN_IF_ERROR(bc.read(c.data(), count * 4));
    std::vector<float> ct(count);
    TG_RETURN_IF_ERROR(tc.read(ct.data(), count * 4));
    double worst = 0;
    for (size_t i = 0; i < count; ++i) {
      // NaN-safe: a poisoned element the tuned kernel never wrote counts as infinitely wrong.
      double d = std::max(std::fabs(double(c[i]) - ref[i]), std::fabs(double(ct[i]) - ref[i]));
      worst = std::isnan(d) ? INFINITY : std::max(worst, d);
    }
    TG_ASSIGN_OR_RETURN(auto binding, tuned.tunables());
    double flops = 2.0 * double(n) * double(n) * double(n);
    double ours_gf = flops / median(t_ours) / 1e9, tuned_gf = flops / median(t_tuned) / 1e9,
           theirs_gf = flops / median(t_theirs) / 1e9;
    rows.push_back({std::to_string(n) + "^3", openblas_get_corename(), std::to_string(openblas_get_num_threads()),
                    fmt(ours_gf, 1), fmt(theirs_gf, 1), fmt(ours_gf / theirs_gf, 2), fmt(tuned_gf, 1),
                    fmt(tuned_gf / theirs_gf, 2), binding.first + " (" + binding.second + ", " + tune_note + ")",
                    fmt(worst, 6)});
  }
  return rows;
}

/// The OpenBLAS kernel family that fits this CPU best.
std::string best_core() {
  std::string flags = " " + describe_machine().flags + " ";
  if (flags.find(" avx512_bf16 ") != std::string::npos) return "Cooperlake";
  if (flags.find(" avx512f ") != std::string::npos) return "SkylakeX";
  if (flags.find(" avx2 ") != std::string::npos) return "Haswell";
  return "";
}

}  // namespace

Result<std::vector<std::vector<std::string>>> gemm_rows_with_core(const Options& o, const std::string& core) {
  if (core.empty()) return gemm_rows(o);
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return error(ErrorCode::Io, "cannot find this executable");
  self[len] = 0;
  std::string cmd = "OPENBLAS_CORETYPE=" + core + " '" + self + "' --gemm-rows --reps " + std::to_string(o.reps) +
                    (o.quick ? " --quick" : "");
  FILE* child = popen(cmd.c_str(), "r");
  if (!child) return error(ErrorCode::Io, "cannot run " + cmd);
  std::vector<std::vector<std::string>> rows;
  char line[1024];
  while (std::fgets(line, sizeof line, child)) {
    std::string s(line);
    if (s.rfind("ROW\t", 0) != 0) continue;
    std::vector<std::string> row;
    std::stringstream in(s.substr(4));
    std::string cell;
    while (std::getline(in, cell, '\t')) row.push_back(cell.back() == '\n' ? cell.substr(0, cell.size() - 1) : cell);
    rows.push_back(row);
  }
  if (pclose(child) != 0) return error(ErrorCode::Io, "'" + cmd + "' failed");
  return rows;
}

Result<Section> bench_gemm(const Options& o) {
  Section s;
  s.title = "f32 gemm: tegula cpu:0 vs OpenBLAS sgemm";
  s.header = {"size", "OpenBLAS kernels", "threads", "sgemm_f32 GFLOP/s", "OpenBLAS GFLOP/s", "ratio",
              "gemm_tuned_f32 GFLOP/s", "ratio", "tuned binding", "max |diff|"};
  TG_ASSIGN_OR_RETURN(s.rows, gemm_rows(o));
  std::string core = best_core();
  std::string detected = s.rows.empty() ? "" : s.rows[0][1];
  bool forced = std::getenv("OPENBLAS_CORETYPE") != nullptr;
  if (!core.empty() && !forced && detected != core) {
    TG_ASSIGN_OR_RETURN(auto more, gemm_rows_with_core(o, core));
    for (auto& r : more) s.rows.push_back(r);
    s.notes.push_back("OpenBLAS " + std::string("0.3.21 (Debian 12) detects this CPU as `") + detected +
                      "` (a generic fallback: it predates the model); the rows with `" + core +
                      "` force its best matching kernels with OPENBLAS_CORETYPE=" + core +
                      " in a child process and are the fair comparison.");
  }
  s.notes.push_back("C = A*B, row-major, no transposes, inputs uniform in [-1, 1). sgemm_f32: bench/cpu/kernels/sgemm_f32.tile "
                    "(hand-picked: 512x512 blocks, K in steps of 128); gemm_tuned_f32: examples/gemm/gemm_tuned_f32.tile "
                    "with the binding `tegula tune FILE --device cpu:0 --bind M=n,N=n,K=n --top 8 --repeat 3` measured "
                    "and recorded in a fresh compile cache before the timed runs (its time includes ranking, compiling "
                    "the top 8 and checking each against the reference), read back by the runtime at launch. Both "
                    "through the runtime API, launch + synchronize. Runs alternate between the three; " +
                    std::to_string(o.warmup) + " warm-up runs each, then the median of " + std::to_string(o.reps) +
                    ". ratio = tegula / OpenBLAS. max |diff|: the larger of the two kernels' distance from "
                    "OpenBLAS's result (the tuned kernel's output poisoned with NaN first).");
  return s;
}

}  // namespace tegula::bench
