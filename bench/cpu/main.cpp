/// \file
/// cpu_bench: the CPU backend beside its peers (OpenBLAS sgemm, memcpy) and its compile
/// times, written to a markdown report. Never run as a test.
///
///   build/bin/cpu_bench --out bench/results/cpu-$(date -u +%F).md
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "bench/cpu/Bench.h"
#include "targets/Target.h"

using namespace tegula;
using namespace tegula::bench;

namespace {

std::string table(const Section& s) {
  std::string out = "|";
  for (const std::string& h : s.header) out += " " + h + " |";
  out += "\n|";
  for (size_t i = 0; i < s.header.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& row : s.rows) {
    out += "|";
    for (const std::string& c : row) out += " " + c + " |";
    out += "\n";
  }
  return out;
}

/// The arch string of cpu:0's own target description (the LLVM CPU it compiles for).
std::string cpu_target_arch() {
  Result<Runtime> rt = open_runtime("off");
  if (!rt.is_ok()) return "?";
  Result<Device> dev = rt->find_device("cpu:0");
  if (!dev.is_ok()) return "?";
  Result<std::string> json = dev->target_json();
  if (!json.is_ok()) return "?";
  Result<TargetDescription> t = parse_target(*json, "cpu:0");
  return t.is_ok() ? t->arch + ", " + std::to_string(t->vector_bytes * 8) + "-bit vectors" : "?";
}

int usage() {
  std::fprintf(stderr, "usage: cpu_bench [--out FILE.md] [--reps N] [--quick] [--only gemm|rows|compile]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::string only;
  bool gemm_rows_only = false;
  o.command = "build/bin/cpu_bench";
  if (const char* t = std::getenv("OPENBLAS_NUM_THREADS")) o.command = "OPENBLAS_NUM_THREADS=" + std::string(t) + " " + o.command;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool value = i + 1 < argc;
    if (a == "--out" && value) {
      o.out = argv[++i];
      o.command += " --out " + o.out;
    } else if (a == "--reps" && value) {
      o.reps = std::atoi(argv[++i]);
      o.command += " --reps " + std::to_string(o.reps);
    } else if (a == "--only" && value) {
      only = argv[++i];
      o.command += " --only " + only;
    } else if (a == "--quick") {
      o.quick = true;
      o.reps = 3;
      o.warmup = 1;
      o.command += " --quick";
    } else if (a == "--gemm-rows") {
      gemm_rows_only = true;  // internal: the child run with OPENBLAS_CORETYPE set
    } else {
      return usage();
    }
  }
  if (o.reps < 1) return usage();
  if (gemm_rows_only) {
    Result<std::vector<std::vector<std::string>>> rows = gemm_rows_with_core(o, "");
    if (!rows.is_ok()) {
      std::fprintf(stderr, "%s\n", rows.status().str().c_str());
      return 1;
    }
    for (const auto& r : *rows) {
      std::printf("ROW");
      for (const std::string& c : r) std::printf("\t%s", c.c_str());
      std::printf("\n");
    }
    return 0;
  }

  Machine m = describe_machine();
  std::string report = "# CPU backend benchmarks\n\n";
  report += "- machine: " + m.model + ", " + std::to_string(m.cores) + " cores (" + m.flags + ")\n";
  report += "- cpu:0 generates code for: " + cpu_target_arch() + "\n";
  report += "- date: " + m.date + "\n";
  report += "- command: `" + o.command + "` (from the repository root, after a Release or RelWithDebInfo build)\n";
  report += "- load average at start: " + m.load + "\n\n";
  std::printf("%s", report.c_str());
  struct Step {
    const char* name;
    Result<Section> (*run)(const Options&);
  };
  const Step steps[] = {{"gemm", bench_gemm}, {"rows", bench_rows}, {"compile", bench_compile}};
  int failures = 0;
  for (const Step& step : steps) {
    if (!only.empty() && only != step.name) continue;
    Result<Section> s = step.run(o);
    if (!s.is_ok()) {
      std::fprintf(stderr, "cpu_bench: %s: %s\n", step.name, s.status().str().c_str());
      ++failures;
      continue;
    }
    std::string text = "## " + s->title + "\n\n" + table(*s) + "\n";
    for (const std::string& n : s->notes) text += n + "\n\n";
    std::printf("%s", text.c_str());
    std::fflush(stdout);
    report += text;
  }
  std::ifstream load("/proc/loadavg");
  std::string end_load;
  std::getline(load, end_load);
  report += "Load average at the end: " + end_load + ". The machine may be shared; figures are medians of interleaved runs.\n";
  if (!o.out.empty()) {
    std::ofstream out(o.out);
    out << report;
    if (!out) {
      std::fprintf(stderr, "cpu_bench: cannot write %s\n", o.out.c_str());
      return 1;
    }
    std::printf("wrote %s\n", o.out.c_str());
  }
  return failures ? 1 : 0;
}
