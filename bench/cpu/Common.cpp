/// \file
/// Runtime, kernel files, machine description and formatting for the CPU benchmarks.
#include <sched.h>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

#include "bench/cpu/Bench.h"
#include "core/Files.h"

namespace tegula::bench {

Result<Runtime> open_runtime(const std::string& cache_dir) {
  RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/cpu.json"};
  o.cache_dir = cache_dir;
  o.ignore_environment = true;
  return Runtime::open(o);
}

Result<std::string> kernel_text(const std::string& relative_path) {
  return read_file(std::string(TEGULA_SOURCE_DIR) + "/" + relative_path);
}

static std::string cpuinfo(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return line.substr(line.find(':') + 2);
  return "";
}

Machine describe_machine() {
  Machine m;
  m.model = cpuinfo("model name");
  cpu_set_t set;
  CPU_ZERO(&set);
  m.cores = sched_getaffinity(0, sizeof set, &set) == 0 ? uint32_t(CPU_COUNT(&set)) : 1;
  std::string flags = " " + cpuinfo("flags") + " ";
  for (const char* f : {"avx2", "fma", "avx512f", "avx512_bf16", "avx512_fp16", "amx_tile"})
    if (flags.find(std::string(" ") + f + " ") != std::string::npos) m.flags += std::string(m.flags.empty() ? "" : " ") + f;
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  m.date = buf;
  std::ifstream load("/proc/loadavg");
  std::getline(load, m.load);
  return m;
}

std::string fmt(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

}  // namespace tegula::bench
