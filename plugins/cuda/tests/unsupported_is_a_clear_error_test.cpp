// What the generator cannot produce exactly is a compile error with a message, never wrong
// code: here a lowered form that stores into a fragment element inside a parallel loop (the
// element lives in another thread's registers; lowering stores into a shared copy instead,
// exchanged_fragments_compile_test, so only a forged form has it) and a kernel lowered for
// another target. Refusals name the .tile line.
#include "plugins/cuda/tests/CudaTest.h"

namespace unsupported_is_a_clear_error_test {

using namespace tegula;
using namespace tegula::cuda::testing;

TEST_CASE("a forged store into a fragment element in a parallel loop is refused with a reason") {
  TG_REQUIRE_NVRTC();
  std::string text = "kernel f(Y: f32[64]) grid(1) threads(64) {\n  alloc x: fragment f32[64]\n  fill x, 1.0\n"
                     "  parallel i in 64 {\n    store x[63 - i] = 2.0\n  }\n  copy x, Y[0]\n}\n";
  auto lowered = lower_text(text, target("sm_90a"));
  REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
  // Lowered, it compiles: the store goes to the fragment's shared copy.
  REQUIRE_MESSAGE(compile_offline(*lowered, "sm_90a").is_ok(), "the lowered store compiles");
  std::string forged = *lowered;
  size_t at = forged.find("store x_staged[");
  REQUIRE(at != std::string::npos);
  forged.replace(at, std::string("store x_staged[").size(), "store x[");
  auto blob = compile_offline(forged, "sm_90a");
  REQUIRE(!blob.is_ok());
  CHECK(contains(blob.status().message(), "fragment 'x'"));
  CHECK(contains(blob.status().message(), "parallel loop"));
  // It names the loop's line in the .tile source (line 4), not a line of the lowered text.
  CHECK_MESSAGE(contains(blob.status().message(), "test.tile:4:"), blob.status().message());
  CHECK_FALSE(contains(blob.status().message(), "<lowered>"));
}

TEST_CASE("a kernel lowered for one target is not compiled for another") {
  TG_REQUIRE_NVRTC();
  auto lowered = lower_text(example("reduce/row_sum.tile"), target("sm_80"));
  REQUIRE(lowered.is_ok());
  auto blob = compile_offline(*lowered, "sm_90a");
  REQUIRE(!blob.is_ok());
  CHECK(contains(blob.status().message(), "lowered for 'sm_80'"));
}

}  // namespace unsupported_is_a_clear_error_test
