// Launches with the wrong arguments are refused with errors (by the runtime, or by the
// plugin when called directly): missing or extra arguments, scalars for tensors, buffers
// too small for the shapes, a negative shape symbol, a grid that is not the kernel's, a
// grid whose block count overflows, a shape symbol that breaks the lowering's divisibility
// assumption (lower.assume).
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>
#include <vector>

namespace launch_misuse_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const char* kKernel = R"(
kernel add1(X: f32[N], Y: f32[N], s: f32) grid(ceildiv(N, 16)) threads(16) {
  alloc x: shared f32[16]
  copy X[bx * 16], x
  map x = x + s
  copy x, Y[bx * 16]
}
)";

tg_launch_arg arg_of(uint32_t kind) {
  tg_launch_arg a{};
  a.struct_size = sizeof a;
  a.kind = kind;
  return a;
}

/// Straight to the plugin: lowered text compiled, loaded, and launched with `args` and
/// `grid`; the error code (TG_OK on success), with the message in last_message().
tg_status_code launch_direct(CpuPlugin& p, const std::string& lowered, std::vector<tg_launch_arg> args,
                             const uint32_t grid[3]) {
  Result<plugin_testing::Executable> exe = p.device->load(p.compiled(lowered));
  REQUIRE_MESSAGE(exe.is_ok(), exe.status().str());
  if (!p.device->launch(*exe, {grid[0], grid[1], grid[2]}, args).is_ok()) return plugin_testing::last_code();
  Status done = p.device->synchronize();
  REQUIRE_MESSAGE(done.is_ok(), done.str());
  return TG_OK;
}

}  // namespace

TEST_CASE("wrong arguments through the runtime") {
  Device dev = cpu_device();
  Result<Kernel> k = dev.compile(kKernel);
  REQUIRE(k.is_ok());
  Result<Buffer> x = dev.alloc(64), y = dev.alloc(64), small = dev.alloc(8);
  REQUIRE((x.is_ok() && y.is_ok() && small.is_ok()));
  CHECK_FALSE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(1)}).is_ok());
  CHECK_FALSE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(1), Arg::integer(16), Arg::integer(1)}).is_ok());
  CHECK_FALSE(k->launch({Arg::tensor(*x), Arg::number(0), Arg::number(1), Arg::integer(16)}).is_ok());
  CHECK_FALSE(k->launch({Arg::tensor(*x), Arg::tensor(*small), Arg::number(1), Arg::integer(16)}).is_ok());
  CHECK_FALSE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(1), Arg::integer(-1)}).is_ok());
  CHECK(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(1), Arg::integer(16)}).is_ok());
  CHECK(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(1), Arg::integer(0)}).is_ok());
}

TEST_CASE("wrong arguments straight to the plugin") {
  CpuPlugin p;
  std::string blob = p.compiled(p.lowered(kKernel));
  REQUIRE(!blob.empty());
  tg_executable* exe = nullptr;
  REQUIRE(p.plugin->ok(p.api()->executable_load(p.device->handle(), blob.data(), blob.size(), &exe)));
  tg_queue* q = nullptr;
  REQUIRE(p.plugin->ok(p.api()->queue_create(p.device->handle(), &q)));
  tg_buffer* buf = nullptr;
  REQUIRE(p.plugin->ok(p.api()->buffer_alloc(p.device->handle(), 64, &buf)));
  auto arg = [](uint32_t kind) {
    tg_launch_arg a{};
    a.struct_size = sizeof a;
    a.kind = kind;
    return a;
  };
  tg_launch_arg args[4] = {arg(TG_ARG_BUFFER), arg(TG_ARG_BUFFER), arg(TG_ARG_F64), arg(TG_ARG_I64)};
  args[0].buffer = buf;
  args[1].buffer = buf;
  args[2].f64 = 1.5;
  args[3].i64 = 16;
  tg_launch_params params{};
  params.struct_size = sizeof params;
  params.grid[0] = params.grid[1] = params.grid[2] = 1;
  params.args = args;
  params.arg_count = 4;
  CHECK(p.plugin->ok(p.api()->launch(q, exe, &params)));
  params.grid[0] = 2;  // the kernel's grid is ceildiv(16, 16) = 1
  CHECK_FALSE(p.plugin->ok(p.api()->launch(q, exe, &params)));
  CHECK(plugin_testing::last_code() == TG_ERR_INVALID_ARGUMENT);
  params.grid[0] = 1;
  args[3].i64 = 17;  // needs 68 bytes
  CHECK_FALSE(p.plugin->ok(p.api()->launch(q, exe, &params)));
  args[3].i64 = 16;
  args[1].offset = 65;
  CHECK_FALSE(p.plugin->ok(p.api()->launch(q, exe, &params)));
  args[1].offset = 0;
  args[0].kind = 7;
  CHECK_FALSE(p.plugin->ok(p.api()->launch(q, exe, &params)));
  args[0].kind = TG_ARG_I64;
  CHECK_FALSE(p.plugin->ok(p.api()->launch(q, exe, &params)));
  args[0].kind = TG_ARG_BUFFER;
  args[0].buffer = reinterpret_cast<tg_buffer*>(&params);  // not a buffer of this device
  CHECK_FALSE(p.plugin->ok(p.api()->launch(q, exe, &params)));
  args[0].buffer = buf;
  params.arg_count = 3;
  CHECK_FALSE(p.plugin->ok(p.api()->launch(q, exe, &params)));
  params.arg_count = 4;
  CHECK(p.plugin->ok(p.api()->launch(q, exe, &params)));
  CHECK(p.plugin->ok(p.api()->queue_synchronize(q)));
  p.api()->buffer_free(buf);
  p.api()->executable_free(exe);
  p.api()->queue_destroy(q);
}

TEST_CASE("a grid whose block count overflows is refused") {
  // Tensors of no elements, so only the grid is large.
  const char* text = R"(
kernel huge(X: f32[A, Z], Y: f32[B, Z], W: f32[C, Z]) grid(A, B, C) threads(1) {
  alloc t: fragment f32[1]
  fill t, 0.0
}
)";
  CpuPlugin p;
  std::string lowered = p.lowered(text);
  Result<ir::Kernel> k = ir::parse_and_verify(text, "test.tile");
  REQUIRE(k.is_ok());
  std::vector<std::string> symbols = k->symbols();
  tg_buffer* buf = nullptr;
  REQUIRE(p.plugin->ok(p.api()->buffer_alloc(p.device->handle(), 64, &buf)));
  const int64_t big = int64_t(1) << 31;
  for (std::vector<int64_t> g : std::vector<std::vector<int64_t>>{{big, big, big}, {3, big, big}, {big, big, 4}}) {
    CAPTURE(g[0]);
    CAPTURE(g[1]);
    CAPTURE(g[2]);
    std::map<std::string, int64_t> value = {{"A", g[0]}, {"B", g[1]}, {"C", g[2]}, {"Z", 0}};
    std::vector<tg_launch_arg> args(3, arg_of(TG_ARG_BUFFER));
    for (tg_launch_arg& a : args) a.buffer = buf;
    for (const std::string& s : symbols) {
      args.push_back(arg_of(TG_ARG_I64));
      args.back().i64 = value.at(s);
    }
    const uint32_t grid[3] = {uint32_t(g[0]), uint32_t(g[1]), uint32_t(g[2])};
    CHECK(launch_direct(p, lowered, args, grid) == TG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(plugin_testing::last_message().find("grid") != std::string::npos, plugin_testing::last_message());
  }
  p.api()->buffer_free(buf);
}

TEST_CASE("a shape symbol that breaks lower.assume is refused, naming it") {
  CpuPlugin p;
  // The runtime lowers with a divisibility guarantee only for launches that keep it; a
  // plugin-ABI caller may not. Record the assumption as lowering would.
  Result<ir::Kernel> k = ir::parse_and_verify(kKernel, "test.tile");
  REQUIRE(k.is_ok());
  Result<ir::LowerResult> l = ir::lower(*k, p.target());
  REQUIRE_MESSAGE(l.is_ok(), l.status().str());
  ir::set_attr(l->kernel.attrs, "lower.assume",
               ir::AttrValue::of_list({ir::AttrValue::of_list({ir::AttrValue::of_ident("N"), ir::AttrValue::of_int(16)})}));
  std::string lowered = ir::print_kernel(l->kernel);
  tg_buffer* buf = nullptr;
  REQUIRE(p.plugin->ok(p.api()->buffer_alloc(p.device->handle(), 256, &buf)));
  std::vector<tg_launch_arg> args = {arg_of(TG_ARG_BUFFER), arg_of(TG_ARG_BUFFER), arg_of(TG_ARG_F64), arg_of(TG_ARG_I64)};
  args[0].buffer = args[1].buffer = buf;
  args[2].f64 = 1.0;
  for (int64_t n : {16, 32, 0}) {
    CAPTURE(n);
    args[3].i64 = n;
    const uint32_t grid[3] = {uint32_t((n + 15) / 16), 1, 1};
    CHECK(launch_direct(p, lowered, args, grid) == TG_OK);
  }
  for (int64_t n : {24, 17, 1}) {
    CAPTURE(n);
    args[3].i64 = n;
    const uint32_t grid[3] = {uint32_t((n + 15) / 16), 1, 1};
    CHECK(launch_direct(p, lowered, args, grid) == TG_ERR_INVALID_ARGUMENT);
    CHECK_MESSAGE(plugin_testing::last_message().find("'N'") != std::string::npos, plugin_testing::last_message());
    CHECK_MESSAGE(plugin_testing::last_message().find("16") != std::string::npos, plugin_testing::last_message());
  }
  p.api()->buffer_free(buf);
}

}  // namespace launch_misuse_test
