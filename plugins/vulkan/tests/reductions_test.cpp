// Reductions run as their plans say and match the reference: sum, max, min and absmax along
// either axis, plans that need subgroup shuffles, steps across subgroups through scratch, and
// a thread factor that is not a power of two (every partial through scratch); max and min
// follow maxNum/minNum (NaN loses; an all-NaN row stays NaN); clear=false accumulates.
#include <cmath>
#include <cstring>

#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace reductions_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

std::string reduce_kernel(const std::string& op, int rows, int cols, int threads, int axis, bool clear) {
  auto s = [](int v) { return std::to_string(v); };
  std::string dst = axis == 1 ? "[" + s(rows) + "]" : "[" + s(cols) + "]";
  std::string out_len = axis == 1 ? s(rows) : s(cols);
  return "kernel r(X: f32[" + s(rows) + ", " + s(cols) + "], Y: f32" + dst + ") grid(1) threads(" + s(threads) + ") {\n"
         "  alloc x: fragment f32[" + s(rows) + ", " + s(cols) + "]\n  alloc y: fragment f32" + dst + "\n"
         "  copy X, x\n" + (clear ? "" : "  copy Y, y\n") + "  reduce x, y, op=" + op + ", axis=" + s(axis) +
         (clear ? "" : ", clear=false") + "\n  copy y, Y\n}\n";
}

}  // namespace

TEST_CASE("reductions over fragments match the reference for every op and plan shape") {
  TG_REQUIRE_VULKAN_DEVICE();
  struct Shape {
    int rows, cols, threads, axis;
  };
  const Shape shapes[] = {{4, 512, 128, 1}, {16, 64, 256, 1}, {64, 16, 256, 0}, {3, 100, 64, 1}, {1, 1, 32, 1}, {8, 6, 96, 0}, {32, 32, 1024, 1}};
  for (const char* op : {"sum", "max", "min", "absmax"})
    for (const Shape& sh : shapes)
      for (bool clear : {true, false}) {
        CAPTURE(op);
        CAPTURE(sh.rows);
        CAPTURE(sh.cols);
        CAPTURE(sh.threads);
        CAPTURE(clear);
        RunSpec spec;
        spec.text = reduce_kernel(op, sh.rows, sh.cols, sh.threads, sh.axis, clear);
        spec.tol = {.abs = 1e-6, .rel = 2e-6 * std::sqrt(double(sh.rows * sh.cols))};
        spec.prepare = [&](const ir::Kernel&, examples::LaunchData& data) {
          auto& x = data.tensors[0].bytes;
          // Some NaNs, and (for max/min) one row of only NaN.
          for (size_t i = 0; i * 4 < x.size(); i += 37) {
            float nan = NAN;
            std::memcpy(x.data() + i * 4, &nan, 4);
          }
          if (sh.axis == 1 && sh.rows > 1)
            for (int c = 0; c < sh.cols; ++c) {
              float nan = NAN;
              std::memcpy(x.data() + size_t(c) * 4, &nan, 4);
            }
          auto& y = data.tensors[1].bytes;
          for (size_t i = 0; i * 4 < y.size(); ++i) {
            float v = float(i % 5) - 2.0f;
            std::memcpy(y.data() + i * 4, &v, 4);
          }
        };
        if (std::string(op) == "sum") {
          // Sums with a NaN are NaN either way; keep them finite to compare the arithmetic.
          spec.prepare = nullptr;
        }
        CHECK(run_compare(spec) == "");
      }
}

TEST_CASE("a reduction from shared memory into shared memory") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel r(X: f32[16, 40], Y: f32[16]) grid(1) threads(64) {\n"
      "  alloc xs: shared f32[16, 40]\n  alloc ys: shared f32[16]\n"
      "  copy X, xs\n  reduce xs, ys, op=max, axis=1\n  copy ys, Y\n}\n";
  CHECK(run_compare(spec) == "");
}

}  // namespace reductions_test
