// Copies between every pair of dtypes round exactly as core/DType.h says: every 8-bit
// encoding, and for wider sources values at the edges (ties, subnormals, overflow, Inf, NaN,
// signed zero, integer saturation). Also through f32 registers and cast<>. Same-dtype copies
// between buffers give what a load and a store give (e5m2 +-Inf saturates to +-57344).
#include <cmath>
#include <cstdint>
#include <limits>

#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace dtype_conversions_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

std::vector<double> edge_values(DType src) {
  std::vector<double> v;
  if (dtype_size(src) == 1 && src != DType::Bool) {
    for (int b = 0; b < 256; ++b) {
      uint8_t byte = uint8_t(b);
      v.push_back(load_element(src, &byte));
    }
    return v;
  }
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  v = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.5, 127.5, 128.5, 255.5, 256.0, -128.5, -129.0, 1e10, -1e10, inf, -inf, nan, -nan,
       1.0 + 0x1p-11, 1.0 + 3 * 0x1p-11, 1.0 + 0x1p-8, 1.0 + 3 * 0x1p-8, 1.0 + 0x1p-9, 65504.0, 65519.0, 65520.0, 65536.0, 0x1p-24,
       0x1p-25, 3 * 0x1p-26, 0x1p-14, 0x1p-15 + 0x1p-25, 448.0, 464.0, 465.0, 57344.0, 61439.0, 61440.0, 0x1p-9, 0x1p-10, 0x1p-16,
       0x1p-17, 3 * 0x1p-18, 3.0e38, 3.4e38, 1e-40, -1e-41, 0x1p-133, 0x1p-134, 2147483520.0, 2147483648.0, -2147483648.0, 1e30,
       0.1, -0.3, 1.0 / 3.0, 2.0 / 3.0, 1000.25, -7.75};
  for (double& x : v) x = round_to_dtype(src, x);
  return v;
}

std::string copy_kernel(DType s, DType d, bool through_registers, bool cast) {
  std::string S = dtype_name(s), D = dtype_name(d);
  std::string head = "kernel c(X: " + S + "[N], Y: " + D + "[N]) grid(ceildiv(N, 64)) threads(64) {\n";
  if (cast) return head + "  parallel i in 64 {\n    if bx * 64 + i < N {\n      store Y[bx * 64 + i] = cast<" + D + ">(X[bx * 64 + i])\n    }\n  }\n}\n";
  if (!through_registers) return head + "  copy X[bx * 64], Y[bx * 64], extent=[64]\n}\n";
  return head + "  alloc r: fragment " + (s == DType::F64 || d == DType::F64 ? std::string("f64") : std::string("f32")) +
         "[64]\n  copy X[bx * 64], r\n  copy r, Y[bx * 64]\n}\n";
}

}  // namespace

TEST_CASE("copies round exactly between every pair of dtypes") {
  TG_REQUIRE_VULKAN_DEVICE();
  const TargetDescription& t = *env().target;
  std::vector<DType> dtypes;
  for (DType d : {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2, DType::I8, DType::U8, DType::I32,
                  DType::Bool})
    if (t.has_dtype(d)) dtypes.push_back(d);
  int runs = 0;
  for (DType s : dtypes) {
    std::vector<double> values = edge_values(s);
    for (DType d : dtypes) {
      for (int mode = 0; mode < 3; ++mode) {
        // Registers are f32 (f64 for f64): integers above 2^24 and f64 values would round
        // twice, so the register route is only checked where f32 holds the source exactly.
        if (mode == 1 && (s == DType::I32 || (s == DType::F64 && d != DType::F64))) continue;
        if (mode == 2 && s == DType::Bool) continue;
        CAPTURE(dtype_name(s));
        CAPTURE(dtype_name(d));
        CAPTURE(mode);
        RunSpec spec;
        spec.text = copy_kernel(s, d, mode == 1, mode == 2);
        spec.bindings = "N=" + std::to_string(values.size());
        spec.validate = mode == 0;
        spec.prepare = [&](const ir::Kernel&, examples::LaunchData& data) {
          auto& x = data.tensors[0];
          for (size_t i = 0; i < values.size(); ++i) store_element(s, values[i], x.bytes.data() + i * dtype_size(s));
        };
        CHECK_MESSAGE(run_compare(spec) == "", dtype_name(s), " -> ", dtype_name(d));
        ++runs;
      }
    }
  }
  MESSAGE(runs << " conversion kernels");
}

TEST_CASE("same-dtype copies give what the IR's load and store give: e5m2 Inf saturates") {
  TG_REQUIRE_VULKAN_DEVICE();
  if (!env().target->has_dtype(DType::E5M2)) return;
  // Every e5m2 encoding as raw bytes (store_element would already saturate +-Inf), through
  // each raw route: global to global, into shared (fixed shape: vector loads; symbolic:
  // element loads), shared to shared.
  const std::string head = "kernel c(X: e5m2[N], Y: e5m2[N]) grid(ceildiv(N, 64)) threads(64) {\n";
  const std::string routes[] = {
      head + "  copy X[bx * 64], Y[bx * 64], extent=[64]\n}\n",
      head + "  alloc s: shared e5m2[64]\n  copy X[bx * 64], s\n  copy s, Y[bx * 64]\n}\n",
      head + "  alloc s: shared e5m2[64]\n  alloc t: shared e5m2[64]\n  copy X[bx * 64], s\n  copy s, t\n  copy t, Y[bx * 64]\n}\n",
  };
  for (const std::string& route : routes) {
    for (bool fixed : {false, true}) {
      CAPTURE(route);
      CAPTURE(fixed);
      RunSpec spec;
      spec.text = route;
      if (fixed) {
        for (size_t p = spec.text.find("[N]"); p != std::string::npos; p = spec.text.find("[N]", p)) spec.text.replace(p, 3, "[256]");
        spec.text.replace(spec.text.find("ceildiv(N, 64)"), 14, "4");
      }
      spec.bindings = fixed ? "" : "N=256";
      spec.prepare = [](const ir::Kernel&, examples::LaunchData& data) {
        for (int i = 0; i < 256; ++i) data.tensors[0].bytes[size_t(i)] = uint8_t(i);
      };
      CHECK(run_compare(spec) == "");
    }
  }
}

}  // namespace dtype_conversions_test
