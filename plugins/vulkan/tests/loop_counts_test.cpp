// The generated loops count in i32, so a launch whose loop bounds or trip count leave it
// (2^32 + 1 iterations ran at most twice, 2^62 none, and the launch reported success) is
// refused at launch with the loop and the value (plugins/support/IntegerWidths.h), leaving the
// outputs untouched; loops up to the edge of the range still run, matching the reference.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace loop_counts_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

/// The kernel that counts its loop's trips into Y[0], from `lo` to `hi` (launch-time values
/// through the scalars a and b where the text names them).
std::string counting_kernel(const std::string& lo, const std::string& hi) {
  return "kernel count(Y: i32[2], a: i32, b: i32) grid(1) threads(1) {\n  parallel t in 1 {\n"
         "    for i in " + lo + " .. " + hi + " {\n      store Y[0] = Y[0] + 1\n      store Y[1] = i\n    }\n  }\n}\n";
}

}  // namespace

TEST_CASE("loops the device cannot count are refused at launch, their outputs untouched") {
  TG_REQUIRE_VULKAN_DEVICE();
  Env& e = env();
  struct Case {
    std::string lo, hi;
    int64_t a, b;
    const char* why;
  };
  for (const Case& c : {Case{"0", "4294967297", 1, 1, "its upper bound may be 4294967297"},
                        Case{"0", "4611686018427387904", 1, 1, "its upper bound may be 4611686018427387904"},
                        Case{"0", "a * b + 1", 65536, 65536, "its upper bound may be 4294967297"},
                        Case{"-a", "a", 1500000000, 1, "its trip count may be 3000000000"}}) {
    CAPTURE(c.hi);
    CompileOptions co;
    co.use_cache = false;
    auto kernel = e.dev->compile(counting_kernel(c.lo, c.hi), co);
    REQUIRE_MESSAGE(kernel.is_ok(), kernel.status().str());
    auto y = e.dev->alloc(8);
    REQUIRE(y.is_ok());
    int32_t before[2] = {7, 7};
    REQUIRE(y->write(before, 8).is_ok());
    Status st = kernel->launch({Arg::tensor(*y), Arg::integer(c.a), Arg::integer(c.b)});
    REQUIRE_FALSE(st.is_ok());
    CHECK(st.code() == ErrorCode::Unsupported);
    CHECK(st.message().find(c.why) != std::string::npos);
    CHECK(st.message().find("counts loops in 32-bit integers") != std::string::npos);
    REQUIRE(e.dev->synchronize().is_ok());
    int32_t after[2] = {0, 0};
    REQUIRE(y->read(after, 8).is_ok());
    CHECK(after[0] == 7);
    CHECK(after[1] == 7);
  }
}

TEST_CASE("loops up to the edge of the counter's range run and match the reference") {
  TG_REQUIRE_VULKAN_DEVICE();
  // 31 trips ending at the last bound allowed (2^31 - 1 - 16), the same from the lowest, and
  // the edge reached through the scalars (a * b = 2147483640).
  for (auto [lo, hi] : {std::pair{"2147483600", "2147483631"}, std::pair{"-2147483631", "-2147483600"},
                        std::pair{"a * b - 40", "a * b - 9"}}) {
    CAPTURE(hi);
    RunSpec spec;
    spec.text = counting_kernel(lo, hi);
    spec.bindings = "a=2,b=1073741820";
    spec.prepare = [](const ir::Kernel&, examples::LaunchData& d) {
      std::fill(d.tensors[0].bytes.begin(), d.tensors[0].bytes.end(), uint8_t(0));
    };
    CHECK(run_compare(spec) == "");
  }
}

}  // namespace loop_counts_test
