// Misuse is an error, never a crash: wrong argument counts and kinds, tensors larger than
// their buffers, offsets past the end or not a multiple of the element size, buffers of
// another device, unknown compile options and IR the plugin cannot read.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <cstdint>
#include <cstring>

namespace launch_misuse_test {

using namespace tegula;
using namespace tegula::vulkan::testing;
using tegula::plugin_testing::buffer_arg;
using tegula::plugin_testing::int_arg;

TEST_CASE("bad launches are refused with INVALID_ARGUMENT") {
  VulkanPlugin p;
  if (p.devices() == 0) {
    MESSAGE("no Vulkan device");
    return;
  }
  auto t = parse_target(p.target_json(0), "device");
  REQUIRE(t.is_ok());
  std::string blob = p.compile_offline(p.target_json(0), lowered_text(example_text("elementwise/silu_mul.tile"), *t));
  REQUIRE(!blob.empty());
  tg_device* d = nullptr;
  REQUIRE(p.code(p.api()->device_open(p.handle(), 0, &d)) == TG_OK);
  tg_executable* exe = nullptr;
  REQUIRE(p.code(p.api()->executable_load(d, blob.data(), blob.size(), &exe)) == TG_OK);
  tg_queue* q = nullptr;
  REQUIRE(p.code(p.api()->queue_create(d, &q)) == TG_OK);
  tg_buffer *x = nullptr, *small = nullptr;
  REQUIRE(p.code(p.api()->buffer_alloc(d, 4096, &x)) == TG_OK);
  REQUIRE(p.code(p.api()->buffer_alloc(d, 16, &small)) == TG_OK);
  auto launch = [&](std::vector<tg_launch_arg> args, uint32_t gx) {
    tg_launch_params lp;
    std::memset(&lp, 0, sizeof(lp));
    lp.struct_size = sizeof(lp);
    lp.grid[0] = gx;
    lp.grid[1] = lp.grid[2] = 1;
    lp.args = args.data();
    lp.arg_count = args.size();
    return p.code(p.api()->launch(q, exe, &lp));
  };
  // silu_mul(X: bf16[N], Z: bf16[N], Y: bf16[N]), grid ceildiv(N, 2048).
  CHECK(launch({buffer_arg(x, 0), buffer_arg(x, 0), buffer_arg(x, 0), int_arg(1000)}, 1) == TG_OK);
  CHECK(launch({buffer_arg(x, 0), buffer_arg(x, 0), buffer_arg(x, 0)}, 1) == TG_ERR_INVALID_ARGUMENT);
  CHECK(launch({buffer_arg(x, 0), buffer_arg(x, 0), buffer_arg(x, 0), int_arg(1000)}, 2) == TG_ERR_INVALID_ARGUMENT);
  CHECK(launch({buffer_arg(x, 0), buffer_arg(small, 0), buffer_arg(x, 0), int_arg(1000)}, 1) == TG_ERR_INVALID_ARGUMENT);
  CHECK(launch({buffer_arg(x, 0), buffer_arg(x, 3), buffer_arg(x, 0), int_arg(1000)}, 1) == TG_ERR_INVALID_ARGUMENT);
  CHECK(launch({buffer_arg(x, 0), buffer_arg(x, 5000), buffer_arg(x, 0), int_arg(1)}, 1) == TG_ERR_INVALID_ARGUMENT);
  CHECK(launch({int_arg(1), buffer_arg(x, 0), buffer_arg(x, 0), int_arg(1000)}, 1) == TG_ERR_INVALID_ARGUMENT);
  CHECK(launch({buffer_arg(x, 0), buffer_arg(x, 0), buffer_arg(x, 0), int_arg(-1)}, 0) == TG_ERR_INVALID_ARGUMENT);
  CHECK(launch({buffer_arg(x, 0), buffer_arg(nullptr, 0), buffer_arg(x, 0), int_arg(1000)}, 1) == TG_ERR_INVALID_ARGUMENT);
  CHECK(p.code(p.api()->queue_synchronize(q)) == TG_OK);
  // Copies outside a buffer.
  uint8_t bytes[32] = {};
  CHECK(p.code(p.api()->copy_h2d(q, small, 8, bytes, 16)) == TG_ERR_INVALID_ARGUMENT);
  CHECK(p.code(p.api()->copy_d2h(q, bytes, small, 17, 0)) == TG_ERR_INVALID_ARGUMENT);
  CHECK(p.code(p.api()->buffer_fill(q, small, 0, 6, bytes, 4)) == TG_ERR_INVALID_ARGUMENT);
  CHECK(p.code(p.api()->buffer_fill(q, small, 0, 8, bytes, 3)) == TG_ERR_INVALID_ARGUMENT);
  // Compile requests it cannot take.
  tg_compile_request r;
  std::memset(&r, 0, sizeof(r));
  r.struct_size = sizeof(r);
  r.ir_format = TG_IR_FORMAT_LOWERED_V1;
  std::string ir = lowered_text(example_text("elementwise/silu_mul.tile"), *t);
  r.ir_data = ir.data();
  r.ir_size = ir.size();
  r.options = "unroll=4";
  tg_blob out;
  std::memset(&out, 0, sizeof(out));
  out.struct_size = sizeof(out);
  CHECK(p.code(p.api()->compile(d, &r, &out)) == TG_ERR_INVALID_ARGUMENT);
  r.options = "";
  r.ir_format = "spirv";
  CHECK(p.code(p.api()->compile(d, &r, &out)) == TG_ERR_UNSUPPORTED);
  p.api()->buffer_free(x);
  p.api()->buffer_free(small);
  p.api()->queue_destroy(q);
  p.api()->executable_free(exe);
  p.api()->device_close(d);
}

}  // namespace launch_misuse_test
