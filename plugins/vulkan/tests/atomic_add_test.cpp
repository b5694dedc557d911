// atomic_add adds every element exactly once, from fragments whose layout replicates threads
// too, into f32, f16, bf16 and i32 tensors (native float atomics where the target has them,
// compare-and-swap loops on the containing word otherwise), with many blocks hitting the same
// elements; masked at tensor edges.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <cstdint>

namespace atomic_add_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("atomic_add from many blocks matches the reference") {
  TG_REQUIRE_VULKAN_DEVICE();
  for (const char* dt : {"f32", "f16", "bf16", "i32"}) {
    CAPTURE(dt);
    if (!env().target->has_dtype(*parse_dtype(dt))) continue;
    std::string src = std::string(dt) == "i32" ? "i32" : "f32";
    RunSpec spec;
    // 8 blocks add the same 40 x 6 values (a fragment of 240 elements over 64 threads: some
    // threads replicate) into Y, whose edge rows are masked.
    spec.text = "kernel a(X: " + src + "[40, 6], Y: " + dt + "[R, 6]) grid(8) threads(64) {\n"
                "  alloc x: fragment " + src + "[40, 6]\n  copy X, x\n  map x = x * 0.25 + 1.0\n"
                "  atomic_add x, Y[0, 0]\n}\n";
    spec.bindings = "R=37";
    spec.prepare = [&](const ir::Kernel&, examples::LaunchData& data) {
      auto& y = data.tensors[1];
      for (int64_t i = 0; i < y.numel(); ++i) store_element(y.dtype, double(i % 7) - 3.0, y.bytes.data() + i * int64_t(dtype_size(y.dtype)));
    };
    // Eight adds in any order: f16 and bf16 round after each add.
    spec.tol = ulp_tolerance(*parse_dtype(dt), 8, 1e-6);
    CHECK(run_compare(spec) == "");
  }
}

}  // namespace atomic_add_test
