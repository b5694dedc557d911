// Every f16 and bf16 encoding decodes and re-encodes exactly, and 2^18 random f32 bit
// patterns (NaNs, infinities and subnormals among them) round to every narrower dtype exactly
// as core/DType.h does: the generated encoders agree with the reference bit for bit.
#include <cstdint>
#include <cstring>
#include <random>

#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace dtype_exhaustive_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

std::string convert_kernel(DType s, DType d) {
  return "kernel c(X: " + std::string(dtype_name(s)) + "[N], Y: " + dtype_name(d) +
         "[N]) grid(ceildiv(N, 256)) threads(256) {\n  copy X[bx * 256], Y[bx * 256], extent=[256]\n}\n";
}

}  // namespace

TEST_CASE("every 16-bit float encoding converts exactly") {
  TG_REQUIRE_VULKAN_DEVICE();
  for (DType s : {DType::F16, DType::BF16}) {
    if (!env().target->has_dtype(s)) continue;
    for (DType d : {DType::F32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2, DType::I32}) {
      if (!env().target->has_dtype(d)) continue;
      CAPTURE(dtype_name(s));
      CAPTURE(dtype_name(d));
      RunSpec spec;
      spec.text = convert_kernel(s, d);
      spec.bindings = "N=65536";
      spec.validate = false;
      spec.prepare = [](const ir::Kernel&, examples::LaunchData& data) {
        auto& x = data.tensors[0].bytes;
        for (uint32_t i = 0; i < 65536; ++i) x[2 * i] = uint8_t(i), x[2 * i + 1] = uint8_t(i >> 8);
      };
      CHECK(run_compare(spec) == "");
    }
  }
}

TEST_CASE("random f32 bit patterns round exactly to every dtype") {
  TG_REQUIRE_VULKAN_DEVICE();
  const uint32_t n = 1u << 18;
  for (DType d : {DType::TF32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2, DType::I8, DType::U8, DType::I32, DType::Bool,
                  DType::E4M3FNUZ, DType::E5M2FNUZ, DType::E2M3, DType::E3M2, DType::E2M1, DType::E8M0, DType::UE4M3}) {
    if (!env().target->has_dtype(d)) continue;
    CAPTURE(dtype_name(d));
    RunSpec spec;
    spec.text = convert_kernel(DType::F32, d);
    spec.bindings = "N=" + std::to_string(n);
    spec.validate = false;
    spec.prepare = [&](const ir::Kernel&, examples::LaunchData& data) {
      std::mt19937 rng(uint32_t(d) + 11);
      auto& x = data.tensors[0].bytes;
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t bits = rng();
        // Half of them near the interesting exponents (small and mid-range magnitudes).
        if (i & 1) bits = (bits & 0x807fffffu) | (uint32_t(100 + (rng() % 60)) << 23);
        std::memcpy(x.data() + 4 * i, &bits, 4);
      }
    };
    CHECK(run_compare(spec) == "");
  }
}

TEST_CASE("every encoding of the generic narrow floats converts exactly") {
  TG_REQUIRE_VULKAN_DEVICE();
  for (DType s : {DType::E4M3FNUZ, DType::E5M2FNUZ, DType::E2M3, DType::E3M2, DType::E2M1, DType::E8M0, DType::UE4M3}) {
    if (!env().target->has_dtype(s)) continue;
    for (DType d : {DType::F32, DType::F16, s, DType::E4M3, DType::I32}) {
      CAPTURE(dtype_name(s));
      CAPTURE(dtype_name(d));
      RunSpec spec;
      spec.text = convert_kernel(s, d);
      spec.bindings = "N=256";
      spec.validate = false;
      spec.prepare = [](const ir::Kernel&, examples::LaunchData& data) {
        auto& x = data.tensors[0].bytes;
        for (uint32_t i = 0; i < 256; ++i) x[i] = uint8_t(i);
      };
      CHECK(run_compare(spec) == "");
    }
  }
}

}  // namespace dtype_exhaustive_test
