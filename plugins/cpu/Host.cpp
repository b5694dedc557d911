/// \file
/// Host detection for the CPU plugin, and the target description built from it.
#include "plugins/cpu/Host.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

namespace tegula::cpu {
namespace {

/// The value of the first "key : value" line of /proc/cpuinfo, or "".
std::string cpuinfo_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

uint32_t usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return uint32_t(n);
  }
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

uint64_t read_cache_size(const char* path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text.empty()) return 0;
  uint64_t v = std::strtoull(text.c_str(), nullptr, 10);
  char unit = text.back();
  if (unit == 'K') v *= 1024;
  if (unit == 'M') v *= 1024 * 1024;
  return v;
}

/// The clock of HostCpu::clock_mhz (see there), with its source.
void detect_clock(HostCpu& h) {
  {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    uint64_t khz = 0;
    if (in >> khz && khz >= 100000) {
      h.clock_mhz = uint32_t(khz / 1000);
      h.clock_source = "cpufreq cpuinfo_max_freq";
      return;
    }
  }
  size_t at = h.brand.find('@');
  if (at != std::string::npos) {
    double ghz = std::strtod(h.brand.c_str() + at + 1, nullptr);
    if (ghz > 0.1 && ghz < 10 && h.brand.find("GHz", at) != std::string::npos) {
      h.clock_mhz = uint32_t(ghz * 1000 + 0.5);
      h.clock_source = "the brand string";
      return;
    }
  }
  std::string flags = cpuinfo_field("flags");
  if ((" " + flags + " ").find(" hypervisor ") == std::string::npos) return;
  double mhz = std::strtod(cpuinfo_field("cpu MHz").c_str(), nullptr);
  if (mhz > 100 && mhz < 10000) {
    h.clock_mhz = uint32_t(mhz + 0.5);
    h.clock_source = "/proc/cpuinfo under a hypervisor";
  }
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out;
}

}  // namespace

HostCpu detect_host() {
  HostCpu h;
  h.triple = llvm::sys::getProcessTriple();
  h.cpu_name = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> flags = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> names;
  for (const auto& f : flags) names.push_back((f.second ? "+" : "-") + f.first().str());
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return a.substr(1) < b.substr(1);
  });
  for (const std::string& n : names) h.features += (h.features.empty() ? "" : ",") + n;
  auto has = [&](const char* name) {
    auto it = flags.find(name);
    return it != flags.end() && it->second;
  };
  h.avx2 = has("avx2");
  h.fma = has("fma");
  h.avx512 = has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl");
  h.vector_bytes = h.avx512 ? 64 : (h.avx2 ? 32 : 16);
  h.brand = cpuinfo_field("model name");
  if (h.brand.empty()) h.brand = h.cpu_name;
  h.vendor = cpuinfo_field("vendor_id");
  if (h.vendor.empty()) h.vendor = "unknown";
  h.cores = usable_cores();
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  h.memory_bytes = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
  h.l2_bytes = read_cache_size("/sys/devices/system/cpu/cpu0/cache/index2/size");
  detect_clock(h);
  return h;
}

std::string host_target_json(const HostCpu& h) {
  uint32_t lanes = h.f32_lanes();
  std::string features;
  auto feature = [&](bool on, const char* name) {
    if (on) features += std::string(features.empty() ? "" : ", ") + "\"" + name + "\"";
  };
  feature(h.avx2, "avx2");
  feature(h.fma, "fma3");
  feature(true, "f64");
  std::string arch = "x86_64_" + h.cpu_name + (h.avx512 ? "_avx512" : (h.avx2 ? "_avx2" : ""));
  std::string json = R"j({
  "schema": "tegula.target.v1",
  "name": "host_cpu",
  "version": 1,
  "vendor": ")j" + json_escape(h.vendor) + R"j(",
  "arch": ")j" + json_escape(arch) + R"j(",
  "backend": "cpu",
  "subgroup_width": )j" + std::to_string(lanes) + R"j(,
  "max_threads_per_block": 1024,
  "shared_memory_per_block": 16777216,
  "vector_bytes": )j" + std::to_string(h.vector_bytes) + R"j(,
  "compute_units": )j" + std::to_string(h.cores) + ",\n";
  if (h.l2_bytes) json += "  \"l2_bytes\": " + std::to_string(h.l2_bytes) + ",\n";
  // What the cores can reach (targets/Peak.h): f32 FMAs per core per clock, at the clock
  // found; memory bandwidth is no fact a host can read, so it is not declared.
  json += "  \"peak\": {\"subgroups_per_cu\": 1, \"fma_lanes_per_cu\": " + std::to_string(h.fma_lanes()) +
          (h.clock_mhz ? ", \"clock_mhz\": " + std::to_string(h.clock_mhz) : std::string()) + "},\n";
  json += R"j(  "features": [)j" + features + R"j(],
  "dtypes": ["f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2", "i8", "u8", "i32", "bool", "e4m3fnuz", "e5m2fnuz", "e2m3", "e3m2", "e2m1", "e8m0", "ue4m3"],
  "notes": [
    "Detected by the cpu plugin: )j" + json_escape(h.brand) + ", LLVM CPU " + json_escape(h.cpu_name) +
          (h.clock_mhz ? ", " + std::to_string(h.clock_mhz) + " MHz from " + h.clock_source : std::string(", clock unknown")) + R"j(. A block runs on one core; a subgroup is the f32 lanes of one vector register. Shared and fragment buffers are per-core host memory."
  ],
  "matrix_instructions": [
    {
      "id": "fma.scalar",
      "kind": "fma",
      "m": 1,
      "n": 1,
      "k": 1,
      "dtypes": {
        "a": ["f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2", "i8", "u8", "i32"],
        "b": ["f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2", "i8", "u8", "i32"],
        "c": ["f32", "f64", "i32"],
        "d": ["f32", "f64", "i32"]
      },
      "locations": {"a": ["registers"], "b": ["registers"], "acc": ["registers"]},
      "scope": "thread",
      "group_threads": 1,
      "issue_threads": 1,
      "majors": {"a": ["k", "mn"], "b": ["k", "mn"]},
      "layouts": {
        "a": {"registers": {"layout": "free"}},
        "b": {"registers": {"layout": "free"}},
        "acc": {"registers": {"layout": "free"}}
      },
      "mnemonic": ")j" + std::string(h.avx512 ? "vfmadd231ps zmm" : "vfmadd231ps ymm") + R"j( (register-blocked microkernel)",
      "requires": [],
      "rate": 2
    }
  ]
}
)j";
  return json;
}

}  // namespace tegula::cpu
