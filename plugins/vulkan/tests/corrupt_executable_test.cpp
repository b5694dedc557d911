// executable_load refuses damaged bytes with TG_ERR_CORRUPT (so a stale cache entry is
// rebuilt, never misread): a flipped byte anywhere, truncation, a wrong magic, another
// plugin's executable, and an executable compiled for another device's description.
// executable_describe refuses them the same way.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <cstring>

namespace corrupt_executable_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

TEST_CASE("damaged or foreign executables are refused as corrupt") {
  VulkanPlugin p;
  if (p.devices() == 0) {
    MESSAGE("no Vulkan device");
    return;
  }
  std::string json = p.target_json(0);
  auto t = parse_target(json, "device");
  REQUIRE(t.is_ok());
  std::string good = p.compile_offline(json, lowered_text(example_text("reduce/row_sum.tile"), *t));
  REQUIRE(!good.empty());
  tg_device* d = nullptr;
  REQUIRE(p.code(p.api()->device_open(p.handle(), 0, &d)) == TG_OK);
  auto load = [&](const std::string& bytes) {
    tg_executable* e = nullptr;
    tg_status_code c = p.code(p.api()->executable_load(d, bytes.data(), bytes.size(), &e));
    if (e) p.api()->executable_free(e);
    return c;
  };
  CHECK(load(good) == TG_OK);
  for (size_t at : {size_t(0), size_t(9), size_t(20), size_t(40), size_t(70), good.size() / 2, good.size() - 1}) {
    std::string bad = good;
    bad[at] = char(bad[at] ^ 0x10);
    CAPTURE(at);
    CHECK(load(bad) == TG_ERR_CORRUPT);
  }
  CHECK(load(good.substr(0, good.size() - 4)) == TG_ERR_CORRUPT);
  CHECK(load(good.substr(0, 30)) == TG_ERR_CORRUPT);
  CHECK(load("tgrefexe" + good.substr(8)) == TG_ERR_CORRUPT);
  CHECK(load(std::string()) == TG_ERR_CORRUPT);
  // Compiled offline for another description (an H200's): valid bytes, wrong device.
  std::string h200_json = device_target_json(h200_caps());
  auto h200 = parse_target(h200_json, "h200");
  REQUIRE(h200.is_ok());
  std::string foreign = p.compile_offline(h200_json, lowered_text(example_text("reduce/row_sum.tile"), *h200));
  REQUIRE(!foreign.empty());
  CHECK(load(foreign) == TG_ERR_CORRUPT);
  tg_blob text;
  std::memset(&text, 0, sizeof(text));
  text.struct_size = sizeof(text);
  std::string bad = good;
  bad[good.size() / 2] ^= 1;
  CHECK(p.code(p.api()->executable_describe(p.handle(), bad.data(), bad.size(), &text)) == TG_ERR_CORRUPT);
  p.api()->device_close(d);
}

}  // namespace corrupt_executable_test
