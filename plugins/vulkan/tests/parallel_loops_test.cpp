// Parallel loops run each iteration once (threads the plan replicates stay idle) with local
// buffers, if/else, nested serial loops and stores to shared memory read back after a
// barrier; out-of-range loads and stores inside them are guarded; fragment elements other
// threads hold are read by index (through a shared copy refreshed before every loop).
#include "plugins/vulkan/tests/VulkanTestUtil.h"

namespace parallel_loops_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("parallel loops with locals, branches and serial loops match the reference") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel p(X: f32[N], Y: f32[N], Z: i32[N]) grid(ceildiv(N, 100)) threads(64) {\n"
      "  alloc s: shared f32[100]\n"
      "  parallel i in 100 {\n    alloc t: local f32[3]\n"
      "    if bx * 100 + i < N {\n      store t[0] = X[bx * 100 + i]\n      store t[1] = 0.0\n"
      "      for j in 0 .. 3 {\n        store t[1] = t[1] + t[0] * cast<f32>(j)\n      }\n"
      "      store s[i] = t[1]\n    } else {\n      store s[i] = -1.0\n    }\n  }\n"
      "  barrier\n"
      "  parallel (i, j) in (10, 10) {\n    if bx * 100 + i * 10 + j < N {\n"
      "      store Y[bx * 100 + i * 10 + j] = s[(i * 10 + j + 1) % 100] + s[i * 10 + j]\n"
      "      store Z[bx * 100 + i * 10 + j] = select(s[i * 10 + j] > 0.0, i - j, (i + 3) / 4)\n    }\n  }\n}\n";
  spec.bindings = "N=257";
  spec.tol = {.abs = 1e-6, .rel = 1e-6};
  CHECK(run_compare(spec) == "");
}

TEST_CASE("scalars of every kind reach the kernel") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text =
      "kernel s(Y: f32[N], a: f32, b: f16, c: i32, d: u8, e: bool) grid(1) threads(32) {\n"
      "  parallel i in 32 {\n    if i < N {\n"
      "      store Y[i] = select(e, a * cast<f32>(i) + b, cast<f32>(c - d))\n    }\n  }\n}\n";
  spec.bindings = "N=30,a=3,c=-7,d=200,e=1";
  CHECK(run_compare(spec) == "");
}

TEST_CASE("a parallel loop reads fragment elements that other threads hold") {
  TG_REQUIRE_VULKAN_DEVICE();
  for (std::string t : {"f64", "f32", "f16", "e4m3", "i8", "bool"}) {
    if (!env().target->has_dtype(*parse_dtype(t))) continue;
    CAPTURE(t);
    std::string value = t == "bool" ? "!f[15 - i, 63 - j]" : "f[15 - i, 63 - j] * 3";
    // Two trips: the second must see the fragment's new contents, not the first trip's copy.
    RunSpec spec;
    spec.text = "kernel p(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n"
                "  alloc f: fragment " + t + "[16, 64]\n  for r in 0 .. 2 {\n    copy X[by * 16, bx * 64 + r], f, pad=1\n"
                "    parallel (i, j) in (16, 64) {\n      if by * 16 + i < M && bx * 64 + j < N {\n"
                "        store Y[by * 16 + i, bx * 64 + j] = " + value + "\n      }\n    }\n  }\n}\n";
    spec.bindings = "M=21,N=100";
    CHECK(run_compare(spec) == "");
  }
}

}  // namespace parallel_loops_test
