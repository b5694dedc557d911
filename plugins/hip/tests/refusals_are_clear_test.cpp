// What the plugin cannot compile it refuses with Unsupported and the reason, never a crash
// and never other code: gfx950 (LLVM 19 has no such processor), another vendor's target;
// damaged executables are Corrupt.
#include "plugins/hip/tests/HipTest.h"

namespace refusals_are_clear_test {

using namespace tegula;
using namespace tegula::hip::testing;

namespace {

const char* kCopy =
    "kernel k(X: f32[N], Y: f32[N]) grid(ceildiv(N, 128)) threads(128) {\n"
    "  alloc t: fragment f32[128]\n  copy X[bx * 128], t\n  copy t, Y[bx * 128]\n}\n";

}  // namespace

TEST_CASE("gfx950 is refused as NotSupported: LLVM 19 cannot target it") {
  auto r = compile_for(kCopy, "gfx950");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Unsupported);
  CHECK(contains(r.status().message(), "LLVM 19 cannot target gfx950"));
}

TEST_CASE("a CUDA target is not offered") {
  auto r = compile_for(kCopy, "sm_90a");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Unsupported);
  CHECK(contains(r.status().message(), "not an AMD GPU description"));
}

TEST_CASE("a damaged executable is refused as corrupt") {
  auto blob = compile_for(kCopy);
  REQUIRE_MESSAGE(blob.is_ok(), blob.status().str());
  std::string bad = *blob;
  bad[bad.size() / 2] ^= 0x40;
  auto d = HipPlugin::get().plugin->describe(bad);
  REQUIRE_FALSE(d.is_ok());
  CHECK(d.status().code() == ErrorCode::Corrupt);
  auto good = hip::decode_executable(blob->data(), blob->size());
  REQUIRE_MESSAGE(good.is_ok(), good.status().str());
  CHECK(good->target == "gfx942");
  CHECK(good->code_object.substr(1, 3) == "ELF");
}

}  // namespace refusals_are_clear_test
