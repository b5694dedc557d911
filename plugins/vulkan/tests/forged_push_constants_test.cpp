// An executable whose header is intact (its digest recomputed) but whose push-constant
// interface is inconsistent is refused at load, never trusted: an f64 entry in the last 4
// bytes of the block, an offset that wraps a 32-bit sum, and a block larger than the
// device's maxPushConstantsSize. Launch would otherwise write past the push-constant bytes.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <cstring>
#include <functional>

#include "plugins/vulkan/Blob.h"

namespace forged_push_constants_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

TEST_CASE("executables with push constants outside their block are refused") {
  VulkanPlugin p;
  if (p.devices() == 0) {
    MESSAGE("no Vulkan device");
    return;
  }
  std::string json = p.target_json(0);
  auto t = parse_target(json, "device");
  REQUIRE(t.is_ok());
  // silu_mul(X, Z, Y: bf16[N]): three tensor offsets, N and the block base x, y, z: 28 bytes.
  std::string good = p.compile_offline(json, lowered_text(example_text("elementwise/silu_mul.tile"), *t));
  REQUIRE(!good.empty());
  auto original = read_executable(good.data(), good.size());
  REQUIRE(original.is_ok());
  REQUIRE(original->iface.push.size() == 7);
  REQUIRE(original->iface.push_bytes == 28);
  tg_device* d = nullptr;
  REQUIRE(p.code(p.api()->device_open(p.handle(), 0, &d)) == TG_OK);
  // The executable with one edit, its digest recomputed (write_executable).
  auto forge = [&](const std::function<void(ShaderInterface&)>& edit) {
    Executable e = *original;
    edit(e.iface);
    return write_executable(e);
  };
  auto load = [&](const std::string& bytes) {
    tg_executable* e = nullptr;
    tg_status_code c = p.code(p.api()->executable_load(d, bytes.data(), bytes.size(), &e));
    if (e) p.api()->executable_free(e);
    return c;
  };
  auto describe = [&](const std::string& bytes) {
    tg_blob text;
    std::memset(&text, 0, sizeof(text));
    text.struct_size = sizeof(text);
    tg_status_code c = p.code(p.api()->executable_describe(p.handle(), bytes.data(), bytes.size(), &text));
    if (c == TG_OK) p.api()->blob_release(&text);
    return c;
  };
  CHECK(load(forge([](ShaderInterface&) {})) == TG_OK);

  std::string f64_at_end = forge([](ShaderInterface& i) { i.push.back().kind = PushF64; });  // bytes 24-31 of 28
  CHECK(load(f64_at_end) == TG_ERR_CORRUPT);
  CHECK(describe(f64_at_end) == TG_ERR_CORRUPT);

  std::string wrapping = forge([](ShaderInterface& i) { i.push.back().offset = 0xfffffffcu; });  // + 8 wraps to 4
  CHECK(load(wrapping) == TG_ERR_CORRUPT);
  CHECK(describe(wrapping) == TG_ERR_CORRUPT);

  std::string past_block = forge([](ShaderInterface& i) { i.push.back().offset = 28; });
  CHECK(load(past_block) == TG_ERR_CORRUPT);

  // A block base names a grid dimension; there are three.
  REQUIRE(original->iface.push.back().kind == PushBlockBase);
  std::string fourth_dim = forge([](ShaderInterface& i) { i.push.back().arg = 3; });
  CHECK(load(fourth_dim) == TG_ERR_CORRUPT);
  CHECK(describe(fourth_dim) == TG_ERR_CORRUPT);
  std::string unknown_kind = forge([](ShaderInterface& i) { i.push.back().kind = kLastPushKind + 1; });
  CHECK(load(unknown_kind) == TG_ERR_CORRUPT);

  // Every entry inside the block, but the block larger than any device offers (the limit is
  // at most a few KiB).
  std::string too_large = forge([](ShaderInterface& i) { i.push_bytes = 1u << 20; });
  CHECK(load(too_large) == TG_ERR_CORRUPT);
  p.api()->device_close(d);
}

}  // namespace forged_push_constants_test
