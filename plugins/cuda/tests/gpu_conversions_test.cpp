// On a CUDA device: a copy from a global tensor of every dtype into a global tensor of every
// dtype (121 pairs) converts exactly as core/DType.h says, over values that exercise
// rounding ties, subnormals, saturation, infinities and NaN; and every f16, bf16, e4m3 and
// e5m2 encoding decodes exactly. Skips without a device.
#include "plugins/cuda/tests/CudaTest.h"

#include <cstdint>
#include <cstring>

namespace gpu_conversions_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

const DType kAll[] = {DType::F64,      DType::F32,      DType::TF32, DType::F16,  DType::BF16, DType::E4M3,
                      DType::E5M2,     DType::I8,       DType::U8,   DType::I32,  DType::Bool, DType::E4M3FNUZ,
                      DType::E5M2FNUZ, DType::E2M3,     DType::E3M2, DType::E2M1, DType::E8M0, DType::UE4M3};

std::vector<double> interesting() {
  std::vector<double> v = {0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 127.5, 128.5, -128.5, 255.5, 300.0, -300.0, 1e-8, 6e-8, 3e-5, 1e-3, 0.1,
                           0.3333333333, 448.0, 464.0, 465.0, 480.0, 57344.0, 61439.0, 61440.0, 65504.0, 65519.0, 65520.0, 70000.0,
                           1e10, -1e10, 3e38, 1e300, -1e300, 2147483647.0, 2147483648.0, -2147483649.0, INFINITY, -INFINITY, NAN};
  // The generic formats' edges: maxima and past them, ties, e8m0's range.
  for (double x : {6.0, 5.0, 7.0, 7.5, 7.75, 28.0, 30.0, 240.0, 248.0, 3.0, 0.375, 0.0625, 1e-30, 1e38})
    for (double s : {1.0, -1.0}) v.push_back(s * x);
  for (int i : {-127, -128, -126, 127, 128}) v.push_back(std::ldexp(1.0, i));
  v.push_back(std::ldexp(1.4, -127));
  v.push_back(std::ldexp(1.6, -127));
  for (int i = -30; i <= 30; ++i) v.push_back(std::ldexp(1.0 + 1.0 / 3, i));
  for (int i = 0; i < 40; ++i) v.push_back(std::ldexp(1.0 + i / 1024.0 + 1.0 / 4096, i % 20 - 10) * (i % 2 ? -1 : 1));
  return v;
}

}  // namespace

TEST_CASE("copies convert between every pair of dtypes exactly") {
  TG_REQUIRE_GPU(gpu);
  std::vector<double> values = interesting();
  for (DType src : kAll) {
    // One kernel per source dtype: X -> Y_d for every d, straight from global to global.
    std::string text = "kernel conv(X: " + std::string(dtype_name(src)) + "[N]";
    for (DType d : kAll) text += ", Y_" + std::string(dtype_name(d)) + ": " + dtype_name(d) + "[N]";
    text += ") grid(ceildiv(N, 128)) threads(128) {\n";
    for (DType d : kAll) text += "  copy X[bx * 128], Y_" + std::string(dtype_name(d)) + "[bx * 128], extent=[128]\n";
    text += "}\n";
    RunOptions o;
    o.bindings = {{"N", int64_t(values.size())}};
    o.use_default_tolerance = false;
    o.tolerance = Tolerance{};
    o.prepare = [&](examples::LaunchData& data) {
      for (size_t e = 0; e < values.size(); ++e) store_element(src, values[e], data.tensors[0].bytes.data() + e * dtype_size(src));
    };
    CAPTURE(dtype_name(src));
    Status st = run_and_compare(*gpu, text, o);
    CHECK_MESSAGE(st.is_ok(), dtype_name(src) << ": " << st.str());
  }
}

TEST_CASE("every 8- and 16-bit float encoding decodes exactly, through fragments and shared memory") {
  TG_REQUIRE_GPU(gpu);
  for (DType d : {DType::F16, DType::BF16, DType::E4M3, DType::E5M2, DType::E4M3FNUZ, DType::E5M2FNUZ, DType::E2M3, DType::E3M2,
                 DType::E2M1, DType::E8M0, DType::UE4M3}) {
    int64_t n = d == DType::F16 || d == DType::BF16 ? 65536 : 256;
    std::string dt = dtype_name(d);
    std::string text = "kernel dec(X: " + dt + "[N], Y: f32[N], Z: f64[N]) grid(ceildiv(N, 256)) threads(64) {\n"
                       "  alloc x: fragment f32[256]\n  alloc s: shared " + dt + "[256]\n"
                       "  copy X[bx * 256], x\n  copy x, Y[bx * 256]\n  copy X[bx * 256], s\n  copy s, Z[bx * 256]\n}\n";
    RunOptions o;
    o.bindings = {{"N", n}};
    o.use_default_tolerance = false;
    o.tolerance = Tolerance{};
    o.prepare = [&](examples::LaunchData& data) {
      for (int64_t e = 0; e < n; ++e) {
        if (dtype_size(d) == 2) {
          uint16_t b = uint16_t(e);
          std::memcpy(data.tensors[0].bytes.data() + 2 * e, &b, 2);
        } else {
          data.tensors[0].bytes[size_t(e)] = uint8_t(e);
        }
      }
    };
    CAPTURE(dt);
    Status st = run_and_compare(*gpu, text, o);
    CHECK_MESSAGE(st.is_ok(), dt << ": " << st.str());
  }
}

}  // namespace gpu_conversions_test
