// An optimization's measured effect on a device comes from two figures of its performance
// section, named in the text with their values and ratio (perf/PerfEffects.h): the best of
// the row's instructions against the fallback, or the copy with and without the
// optimization. A missing or unmeasured figure says which; a device without a performance
// section gives nothing; a row with no pair says so.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "conformance/perf/PerfEffects.h"

namespace optimization_effects_test {

using namespace tegula;
using namespace tegula::conformance;

namespace {

/// A device whose performance section holds these measured figures (name, value, unit), and
/// an unmeasured one.
Json device(const std::vector<std::tuple<std::string, double, std::string>>& measured) {
  Json figures = Json::array();
  for (const auto& [name, value, unit] : measured) {
    Json f = Json::object();
    f.set("name", name);
    f.set("value", value);
    f.set("unit", unit);
    f.set("method", Json::object());
    figures.push(f);
  }
  Json unmeasured = Json::object();
  unmeasured.set("name", "tegula.perf.gemm.wgmma.m64n256k16.f16_f32");
  unmeasured.set("not_measured", "the device has no such instruction");
  figures.push(unmeasured);
  Json perf = Json::object();
  perf.set("figures", figures);
  Json d = Json::object();
  d.set("name", "cuda:0");
  d.set("performance", perf);
  return d;
}

}  // namespace

TEST_CASE("a pair of figures gives the effect, with both names and the ratio") {
  Json d = device({{"tegula.perf.copy.registers", 3000, "GB/s"},
                   {"tegula.perf.copy.scalar", 1500, "GB/s"},
                   {"tegula.perf.gemm.mma_sync.m16n8k16.f16_f32", 600, "TFLOP/s"},
                   {"tegula.perf.gemm.mma_sync.m16n8k8.f16_f32", 400, "TFLOP/s"},
                   {"tegula.perf.gemm.fma.scalar", 50, "TFLOP/s"}});
  CHECK(measured_effect("vector_access", d) ==
        "on 3e+03 GB/s (tegula.perf.copy.registers), off 1.5e+03 GB/s (tegula.perf.copy.scalar): 2x");
  // The best of the row's instructions against the fallback.
  CHECK(measured_effect("mma_sync", d) ==
        "on 600 TFLOP/s (tegula.perf.gemm.mma_sync.m16n8k16.f16_f32), off 50 TFLOP/s (tegula.perf.gemm.fma.scalar): 12x");
  // wgmma's "off" is mma.sync where the device has it; its own figure is not measured here.
  CHECK(measured_effect("wgmma", d) == "not measured: no measured figure tegula.perf.gemm.wgmma.* on this device");
}

TEST_CASE("what cannot be measured says why, and a device without the section gives nothing") {
  Json d = device({{"tegula.perf.copy.pipelined", 2000, "GB/s"}});
  CHECK(measured_effect("software_pipelining", d) ==
        "not measured: no measured figure tegula.perf.copy.loop to compare with on this device");
  CHECK(measured_effect("swizzled_shared", d) ==
        "not measured: no figure pair for this optimization in the performance section");
  Json bare = Json::object();
  bare.set("name", "cpu:0");
  CHECK(measured_effect("vector_access", bare) == "");
}

}  // namespace optimization_effects_test
