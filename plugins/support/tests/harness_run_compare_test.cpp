// run_and_compare runs a kernel on a plugin's device and on the reference interpreter from
// the same inputs and finds what is wrong: it passes a correct kernel, and reports a kernel
// that computes something else (the count and the first element, described), one that writes
// an input, and one that leaves an output unwritten (the 0xff poison read back as NaN where
// the reference has a number). The wrong kernels are planted as precompiled executables of
// the same signature, so the harness cannot know.
#include <doctest/doctest.h>

#include "ir/Parser.h"
#include "plugins/support/testing/RunCompare.h"
#include "plugins/support/tests/HarnessTestUtil.h"

namespace harness_run_compare_test {

using namespace tegula;
using namespace tegula::plugin_testing;
using tegula::plugin_testing::testing::library;

namespace {

const char* kScale = R"(
kernel scale(X: f32[N], Y: f32[N], s: f32) grid(ceildiv(N, 64)) threads(64) {
  alloc x: fragment f32[64]
  copy X[bx * 64], x
  map x = x * s
  copy x, Y[bx * 64]
}
)";

/// Same signature, another value: Y = X * s + 1 in the last block only.
const char* kScaleWrong = R"(
kernel scale(X: f32[N], Y: f32[N], s: f32) grid(ceildiv(N, 64)) threads(64) {
  alloc x: fragment f32[64]
  copy X[bx * 64], x
  map x = x * s
  if bx == ceildiv(N, 64) - 1 {
    map x = x + 1.0
  }
  copy x, Y[bx * 64]
}
)";

/// Same signature; also writes X.
const char* kScaleWritesInput = R"(
kernel scale(X: f32[N], Y: f32[N], s: f32) grid(ceildiv(N, 64)) threads(64) {
  alloc x: fragment f32[64]
  copy X[bx * 64], x
  map x = x * s
  copy x, Y[bx * 64]
  copy x, X[bx * 64]
}
)";

/// Same signature; writes only the first block of Y.
const char* kScaleFirstBlock = R"(
kernel scale(X: f32[N], Y: f32[N], s: f32) grid(ceildiv(N, 64)) threads(64) {
  alloc x: fragment f32[64]
  copy X[bx * 64], x
  map x = x * s
  if bx == 0 {
    copy x, Y[bx * 64]
  }
}
)";

struct Reference {
  std::unique_ptr<Plugin> plugin;
  std::unique_ptr<Device> device;
  TargetDescription target;

  Reference() {
    auto p = Plugin::open(library("reference"));
    REQUIRE_MESSAGE(p.is_ok(), p.status().str());
    plugin = std::move(p).value();
    auto d = plugin->open_device(0);
    REQUIRE_MESSAGE(d.is_ok(), d.status().str());
    device = std::move(d).value();
    auto t = resolve_target(*plugin, 0);
    REQUIRE_MESSAGE(t.is_ok(), t.status().str());
    target = *t;
  }
  /// `source` lowered for the device and compiled there.
  std::string executable(const char* source) {
    auto lowered = lower_source(source, target);
    REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
    auto bytes = device->compile(*lowered);
    REQUIRE_MESSAGE(bytes.is_ok(), bytes.status().str());
    return *bytes;
  }
};

RunSpec scale_spec(int64_t n) {
  RunSpec spec;
  spec.source = kScale;
  spec.bindings = {{"N", n}, {"s", 3}};
  spec.tolerance = Tolerance{};
  return spec;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a correct kernel matches, at full and partial blocks") {
  Reference r;
  for (int64_t n : {1, 64, 130}) {
    CAPTURE(n);
    Status st = run_and_compare(*r.device, r.target, scale_spec(n));
    CHECK_MESSAGE(st.is_ok(), st.str());
  }
  // The default tolerance (per output dtype) and a precompiled executable of the kernel.
  RunSpec spec = scale_spec(100);
  spec.tolerance.reset();
  spec.executable = r.executable(kScale);
  Status st = run_and_compare(*r.device, r.target, spec);
  CHECK_MESSAGE(st.is_ok(), st.str());
}

TEST_CASE("a wrong value is found and the first one described") {
  Reference r;
  RunSpec spec = scale_spec(130);  // blocks 0, 1 and 2 (elements 128 and 129)
  spec.executable = r.executable(kScaleWrong);
  Status st = run_and_compare(*r.device, r.target, spec);
  REQUIRE_FALSE(st.is_ok());
  CHECK_MESSAGE(has(st.message(), "Y: 2 of 130 elements differ; first Y[128]: got "), st.str());
  // Within a tolerance wider than the planted error, the same run passes.
  spec.tolerance = Tolerance{.abs = 1.5, .rel = 0};
  Status wide = run_and_compare(*r.device, r.target, spec);
  CHECK_MESSAGE(wide.is_ok(), wide.str());
}

TEST_CASE("an input written by the kernel is found") {
  Reference r;
  RunSpec spec = scale_spec(64);
  spec.executable = r.executable(kScaleWritesInput);
  Status st = run_and_compare(*r.device, r.target, spec);
  REQUIRE_FALSE(st.is_ok());
  CHECK_MESSAGE(has(st.message(), "input 'X' was modified by the kernel"), st.str());
  CHECK_FALSE(has(st.message(), "Y:"));
}

TEST_CASE("an output left unwritten is found: the poison is not the reference's value") {
  Reference r;
  RunSpec spec = scale_spec(128);
  spec.executable = r.executable(kScaleFirstBlock);
  Status st = run_and_compare(*r.device, r.target, spec);
  REQUIRE_FALSE(st.is_ok());
  CHECK_MESSAGE(has(st.message(), "Y: 64 of 128 elements differ; first Y[64]: got -nan, expected "), st.str());
}

TEST_CASE("launch arguments follow the kernel's signature") {
  Reference r;
  auto k = ir::parse_and_verify(kScale, "scale.tile");
  REQUIRE(k.is_ok());
  RunSpec spec = scale_spec(200);
  auto data = make_data(*k, spec);
  REQUIRE_MESSAGE(data.is_ok(), data.status().str());
  std::vector<Buffer> buffers(3);
  auto args = launch_args(*k, *data, buffers);
  REQUIRE(args.is_ok());
  REQUIRE(args->size() == 4);  // X, Y, s, then the symbol N
  CHECK((*args)[0].kind == TG_ARG_BUFFER);
  CHECK((*args)[1].kind == TG_ARG_BUFFER);
  CHECK((*args)[2].kind == TG_ARG_F64);
  CHECK((*args)[2].f64 == 3.0);
  CHECK((*args)[3].kind == TG_ARG_I64);
  CHECK((*args)[3].i64 == 200);
  for (const tg_launch_arg& a : *args) CHECK(a.struct_size == sizeof(tg_launch_arg));
  auto grid = launch_grid(*k, *data);
  REQUIRE(grid.is_ok());
  CHECK(*grid == std::array<uint32_t, 3>{4, 1, 1});
  std::vector<Buffer> too_few(1);
  CHECK_FALSE(launch_args(*k, *data, too_few).is_ok());
}

}  // namespace harness_run_compare_test
