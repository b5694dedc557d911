// cpu:0 describes the machine it runs on: the brand string from /proc/cpuinfo, its cores,
// memory, and a target description (named host_cpu) with the detected vector width, which
// lowering then uses.
#include <fstream>
#include <thread>

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

}  // namespace device_test
