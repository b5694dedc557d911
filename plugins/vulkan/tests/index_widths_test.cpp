// The generated code computes indices in i32: `Y[i * a * b + i]` with a * b = 2^32 would
// wrap to Y[i], inside the tensor, and write it where the reference refuses the access (an
// index past the end). The launch is refused instead, naming the expression
// (plugins/support/IntegerWidths.h), and Y is untouched; the same kernel with values that
// fit runs and matches the reference.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <cstdint>

namespace index_widths_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

constexpr const char* kWrapping =
    "kernel wrap(X: f32[N], Y: f32[N], a: i32, b: i32) grid(1) threads(4) {\n  parallel i in 4 {\n"
    "    store Y[i * a * b + i] = X[i] + 1.0\n  }\n}\n";

}  // namespace

TEST_CASE("an index that would wrap in i32 is refused at launch, its output untouched") {
  TG_REQUIRE_VULKAN_DEVICE();
  Env& e = env();
  CompileOptions co;
  co.use_cache = false;
  auto kernel = e.dev->compile(kWrapping, co);
  REQUIRE_MESSAGE(kernel.is_ok(), kernel.status().str());
  auto x = e.dev->alloc(64 * 4), y = e.dev->alloc(64 * 4);
  REQUIRE(x.is_ok());
  REQUIRE(y.is_ok());
  std::vector<float> before(64, -3.0f);
  REQUIRE(x->write(before.data(), 256).is_ok());
  REQUIRE(y->write(before.data(), 256).is_ok());
  Status st = kernel->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::integer(65536), Arg::integer(65536), Arg::integer(64)});
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == ErrorCode::Unsupported);
  CHECK_MESSAGE(st.message().find("'i * a * b' may be anything in [0, 12884901888]") != std::string::npos, st.message());
  REQUIRE(e.dev->synchronize().is_ok());
  std::vector<float> after(64, 0.0f);
  REQUIRE(y->read(after.data(), 256).is_ok());
  for (float v : after) CHECK(v == -3.0f);
}

TEST_CASE("the same kernel with values that fit runs and matches the reference") {
  TG_REQUIRE_VULKAN_DEVICE();
  RunSpec spec;
  spec.text = kWrapping;
  spec.bindings = "a=3,b=5,N=64";
  spec.prepare = [](const ir::Kernel&, examples::LaunchData& d) {
    std::fill(d.tensors[1].bytes.begin(), d.tensors[1].bytes.end(), uint8_t(0));
  };
  CHECK(run_compare(spec) == "");
}

}  // namespace index_widths_test
