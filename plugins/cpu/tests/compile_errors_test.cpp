// compile() answers bad requests with errors, never an abort: malformed or unverifiable IR
// text, a source kernel that was not lowered for this target, an unknown IR format,
// unknown or out-of-range options, empty input.
#include "plugins/cpu/tests/CpuTestUtil.h"

namespace compile_errors_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const char* kGood = R"(
kernel copy1(X: f32[N], Y: f32[N]) grid(ceildiv(N, 16)) threads(16) {
  alloc x: shared f32[16]
  copy X[bx * 16], x
  copy x, Y[bx * 16]
}
)";

}  // namespace

TEST_CASE("malformed and unverifiable IR") {
  CpuPlugin p;
  for (const char* text : {"", "kernel", "kernel k() grid(1) threads(1) {", "garbage \x01\x02\xff",
                           "kernel k(X: f32[N]) grid(1) threads(1) { copy X, Y }",
                           "kernel k(X: f32[N]) grid(1) threads(0) { }",
                           "kernel k(X: f32[N]) grid(1) threads(1) { map X = 1.0 }"}) {
    CAPTURE(text);
    CHECK_FALSE(p.device->compile(text).is_ok());
    CHECK(plugin_testing::last_code() == TG_ERR_COMPILE);
    CHECK_FALSE(plugin_testing::last_message().empty());
  }
}

TEST_CASE("a kernel not lowered for this target") {
  CpuPlugin p;
  // Source text: verifies as lowered IR, but no lowering pass has seen it.
  CHECK_FALSE(p.device->compile(kGood).is_ok());
  CHECK(plugin_testing::last_code() == TG_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(plugin_testing::last_message().find("not lowered") != std::string::npos, plugin_testing::last_message());
  // Lowered for a GPU.
  Result<ir::Kernel> k = ir::parse_and_verify(kGood, "test.tile");
  REQUIRE(k.is_ok());
  Result<TargetDescription> gpu = builtin_target("sm_80");
  REQUIRE_MESSAGE(gpu.is_ok(), gpu.status().str());
  Result<ir::LowerResult> l = ir::lower(*k, *gpu);
  REQUIRE_MESSAGE(l.is_ok(), l.status().str());
  CHECK_FALSE(p.device->compile(ir::print_kernel(l->kernel)).is_ok());
  CHECK(plugin_testing::last_code() == TG_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(plugin_testing::last_message().find("sm_80") != std::string::npos, plugin_testing::last_message());
  // Lowered for another description of host_cpu (another machine's): its hash differs.
  std::string other = p.lowered(kGood);
  size_t at = other.find("lower.target_hash=\"");
  REQUIRE(at != std::string::npos);
  other[at + 19] = other[at + 19] == '0' ? '1' : '0';
  CHECK_FALSE(p.device->compile(other).is_ok());
  CHECK(plugin_testing::last_code() == TG_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(plugin_testing::last_message().find("another description of 'host_cpu'") != std::string::npos, plugin_testing::last_message());
  // Lowered for this device: compiles.
  CHECK(p.device->compile(p.lowered(kGood)).is_ok());
}

TEST_CASE("a request in another format, or with unknown options") {
  CpuPlugin p;
  std::string lowered = p.lowered(kGood);
  CHECK_FALSE(p.device->compile(lowered, {"", "tegula.source.v9"}).is_ok());
  CHECK(plugin_testing::last_code() == TG_ERR_UNSUPPORTED);
  for (const char* options : {"fast=1", "gemm_mr=0", "gemm_mr=17", "gemm_nv=9", "gemm_mr", "\ngemm_mr=x\n",
                              "gemm_mr=4x", "gemm_nv=2 ", "gemm_mr= 4", "gemm_mr=", "gemm_nv=1.5", "gemm_mr=4\ngemm_nv=2z"}) {
    CAPTURE(options);
    CHECK_FALSE(p.device->compile(lowered, {options}).is_ok());
    CHECK(plugin_testing::last_code() == TG_ERR_INVALID_ARGUMENT);
  }
  CHECK(p.device->compile(lowered, {"gemm_mr=4\ngemm_nv=2\n"}).is_ok());
}

TEST_CASE("bad arguments to compile and load") {
  CpuPlugin p;
  tg_blob blob{};
  blob.struct_size = sizeof blob;
  CHECK_FALSE(p.plugin->ok(p.api()->compile(p.device->handle(), nullptr, &blob)));
  CHECK(plugin_testing::last_code() == TG_ERR_INVALID_ARGUMENT);
  tg_compile_request r{};
  r.struct_size = sizeof r;
  r.ir_format = TG_IR_FORMAT_LOWERED_V1;
  r.ir_size = 10;  // and no data
  CHECK_FALSE(p.plugin->ok(p.api()->compile(p.device->handle(), &r, &blob)));
  CHECK(plugin_testing::last_code() == TG_ERR_INVALID_ARGUMENT);
  tg_executable* exe = nullptr;
  CHECK_FALSE(p.plugin->ok(p.api()->executable_load(p.device->handle(), nullptr, 5, &exe)));
  CHECK(plugin_testing::last_code() == TG_ERR_INVALID_ARGUMENT);
}

}  // namespace compile_errors_test
