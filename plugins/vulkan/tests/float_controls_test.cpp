// Subnormals, signed zeros, infinities and NaNs are kept where the driver can be told to
// (SPV_KHR_float_controls): the device's float-controls properties become the widths the
// description allows (for subnormals under the driver's independence rule), and every
// generated shader declares DenormPreserve and SignedZeroInfNanPreserve for them.
#include "plugins/vulkan/tests/CodegenTestUtil.h"

#include <string>
#include <vector>

#include "plugins/vulkan/spirv/Listing.h"

namespace float_controls_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

namespace {

DeviceCaps with_float_controls(bool p16, bool p32, bool p64, uint32_t independence) {
  DeviceCaps c = lavapipe_caps();
  c.denorm_preserve16 = p16;
  c.denorm_preserve32 = p32;
  c.denorm_preserve64 = p64;
  c.denorm_independence = independence;
  c.signed_zero_preserve16 = p16;
  c.signed_zero_preserve32 = p32;
  c.signed_zero_preserve64 = p64;
  return c;
}

std::vector<uint32_t> widths(const DeviceCaps& c) {
  auto t = codegen_target(describe(c));
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return t->denorm_preserve;
}

const char* kMap =
    "kernel m(X: f32[N], Y: f32[N]) grid(ceildiv(N, 64)) threads(64) {\n"
    "  alloc x: fragment f32[64]\n"
    "  copy X[bx * 64], x\n"
    "  map x = x * 0.5\n"
    "  copy x, Y[bx * 64]\n"
    "}\n";

}  // namespace

TEST_CASE("the description allows the widths the driver can preserve, under its independence rule") {
  const uint32_t only32 = 0, all = 1, none = 2;
  CHECK(widths(with_float_controls(false, false, false, all)).empty());
  CHECK(widths(with_float_controls(true, true, true, all)) == std::vector<uint32_t>{16, 32, 64});
  CHECK(widths(with_float_controls(false, true, false, all)) == std::vector<uint32_t>{32});
  // Widths that must be set alike: all or nothing.
  CHECK(widths(with_float_controls(false, true, false, none)).empty());
  CHECK(widths(with_float_controls(true, true, true, none)) == std::vector<uint32_t>{16, 32, 64});
  // 32-bit independent: 16 and 64 only together.
  CHECK(widths(with_float_controls(true, true, false, only32)) == std::vector<uint32_t>{32});
  CHECK(widths(with_float_controls(true, false, true, only32)) == std::vector<uint32_t>{16, 64});
}

TEST_CASE("signed zeros are preserved per width, with no independence rule") {
  auto t = codegen_target(describe(with_float_controls(false, true, true, 2)));
  REQUIRE(t.is_ok());
  CHECK(t->signed_zero_preserve == std::vector<uint32_t>{32, 64});
  CHECK(t->denorm_preserve.empty());
}

TEST_CASE("shaders declare DenormPreserve and SignedZeroInfNanPreserve for exactly those widths, and stay valid") {
  for (bool preserve : {false, true}) {
    CAPTURE(preserve);
    auto shader = generate_for(kMap, describe(with_float_controls(preserve, preserve, preserve, 1)));
    REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
    std::string listing = spirv_listing(shader->words);
    int denorm = 0, signed_zero = 0;
    for (size_t p = listing.find("OpExecutionMode"); p != std::string::npos; p = listing.find("OpExecutionMode", p + 1)) {
      std::string line = listing.substr(p, listing.find('\n', p) - p);
      if (line.find(" 4459 ") != std::string::npos) ++denorm;
      if (line.find(" 4461 ") != std::string::npos) ++signed_zero;
    }
    CHECK(denorm == (preserve ? 3 : 0));
    CHECK(signed_zero == (preserve ? 3 : 0));
    CHECK((listing.find("OpCapability 4464") != std::string::npos) == preserve);
    CHECK((listing.find("OpCapability 4466") != std::string::npos) == preserve);
    std::string verdict = spirv_val(shader->words);
    if (verdict != "skip") CHECK_MESSAGE(verdict.empty(), verdict);
  }
}

}  // namespace float_controls_test
