// cpu:0 describes the machine it runs on: the brand string from /proc/cpuinfo, its cores,
// memory, and a target description (named host_cpu) with the detected vector width, which
// lowering then uses, and the peaks it declares (FMA lanes per core, the clock where the host
// states one), which the performance section measures against.
#include <fstream>
#include <thread>

#include "targets/Peak.h"

#include "plugins/cpu/tests/CpuTestUtil.h"
#include "targets/Target.h"

namespace device_test {

using namespace tegula;
using namespace tegula::cpu::testing;

TEST_CASE("device properties come from the host") {
  Device dev = cpu_device();
  Result<DeviceInfo> info = dev.info();
  REQUIRE(info.is_ok());
  CHECK(info->name == "cpu:0");
  CHECK(info->plugin == "cpu");
  CHECK(info->target == "host_cpu");
  CHECK(info->compute_units >= 1);
  CHECK(info->compute_units <= std::thread::hardware_concurrency());
  CHECK(info->memory_bytes > 0);
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, brand;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      brand = line.substr(line.find(':') + 2);
      break;
    }
  if (!brand.empty()) CHECK(info->device_name == brand);
}

TEST_CASE("the target description is the detected CPU") {
  Device dev = cpu_device();
  Result<std::string> json = dev.target_json();
  REQUIRE(json.is_ok());
  Result<TargetDescription> t = parse_target(*json, "cpu:0");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  CHECK(t->name == "host_cpu");
  CHECK((t->vector_bytes == 16 || t->vector_bytes == 32 || t->vector_bytes == 64));
  CHECK(t->subgroup_width * 4 == t->vector_bytes);
  CHECK(t->find_instruction("fma.scalar") != nullptr);
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) CHECK(t->vector_bytes == 64);
  else if (__builtin_cpu_supports("avx2")) CHECK(t->vector_bytes == 32);
}

TEST_CASE("the description declares the cores' FMA rate, at a clock that does not move") {
  Device dev = cpu_device();
  Result<std::string> json = dev.target_json();
  REQUIRE(json.is_ok());
  Result<TargetDescription> t = parse_target(*json, "cpu:0");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  REQUIRE(t->peak.fma_lanes_per_cu.has_value());
  __builtin_cpu_init();
  int64_t lanes = t->vector_bytes / 4;
  CHECK(*t->peak.fma_lanes_per_cu == (__builtin_cpu_supports("fma") ? 2 * lanes : lanes));
  CHECK(t->peak.subgroups_per_cu == 1);
  CHECK_FALSE(t->peak.memory_gbps.has_value());  // not a fact the host can read
  // The clock is part of the description and so of every cache key: read twice, the same.
  Result<std::string> again = dev.target_json();
  REQUIRE(again.is_ok());
  CHECK(*again == *json);
  // Under a hypervisor without cpufreq (CI's machines), /proc/cpuinfo's nominal clock.
  std::ifstream flags_in("/proc/cpuinfo");
  std::string line;
  bool hypervisor = false, cpufreq = std::ifstream("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq").good();
  while (std::getline(flags_in, line))
    if (line.rfind("flags", 0) == 0) {
      hypervisor = (line + " ").find(" hypervisor ") != std::string::npos;
      break;
    }
  if (hypervisor || cpufreq) REQUIRE(t->peak.clock_mhz.has_value());
  if (!t->peak.clock_mhz) return;
  CHECK(*t->peak.clock_mhz > 100);
  CHECK(*t->peak.clock_mhz < 10000);
  // The FMA fallback's peak follows: 2 x lanes x cores x clock.
  const MatrixInstruction* fma = t->find_instruction("fma.scalar");
  REQUIRE(fma != nullptr);
  DeclaredPeak p = instruction_peak_tflops(*t, *fma);
  REQUIRE_MESSAGE(p.declared(), p.basis);
  double want = 2.0 * double(*t->peak.fma_lanes_per_cu) * double(*t->compute_units) * *t->peak.clock_mhz * 1e6 / 1e12;
  CHECK(p.value == doctest::Approx(want));
}

}  // namespace device_test
