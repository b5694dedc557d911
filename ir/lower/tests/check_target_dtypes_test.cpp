// check_target_dtypes (ir/lower/CheckTargetDTypes.cpp): lowering refuses, with the location
// of the first use, a kernel whose tensors, buffers or casts name a dtype its target does
// not hold, and a kernel asking for non-saturating stores on a target without the
// nonsaturating_stores feature; the same kernels lower where the description declares them.
#include "ir/lower/Passes.h"

#include <string>

#include "ir/Parser.h"
#include "ir/lower/tests/LowerCases.h"

namespace check_target_dtypes_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

std::string copy_kernel(const std::string& in, const std::string& buf, const std::string& value, const std::string& attrs = "") {
  return "kernel k(X: " + in + "[N], Y: f32[N]) grid(ceildiv(N, 64)) threads(64)" + attrs + " {\n" +
         "  alloc T: shared " + buf + "[64]\n" +
         "  copy X[bx * 64], T\n" +
         "  parallel i in 64 {\n" +
         "    store Y[bx * 64 + i] = " + value + "\n" +
         "  }\n}\n";
}

/// host_cpu's description without the narrow floats beyond OCP FP8: a device that does not
/// hold them (every description in targets/descriptions holds them since 2026-12-08).
TargetDescription without_new_floats() {
  TargetDescription t = target("host_cpu");
  std::erase_if(t.dtypes, [](DType d) { return dtype_size(d) == 1 && float_format(d) && d != DType::E4M3 && d != DType::E5M2; });
  t.name = "host_cpu_without_mx";
  return t;
}

Result<LowerResult> lower_for(const std::string& text, const std::string& target_name) {
  if (target_name != "host_cpu_without_mx") return lower_text(text, target_name);
  auto k = parse_and_verify(text, "k.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return lower(*k, without_new_floats(), {});
}

void expect_refusal(const std::string& text, const std::string& target_name, const std::string& what, const std::string& where) {
  auto r = lower_for(text, target_name);
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Unsupported);
  CHECK_MESSAGE(r.status().message().find(what) != std::string::npos, r.status().str());
  CHECK_MESSAGE(r.status().str().find(where) != std::string::npos, r.status().str());
}

}  // namespace

TEST_CASE("a tensor of a dtype the target does not hold is refused at its parameter") {
  std::string text = copy_kernel("e2m1", "f32", "T[i]");
  expect_refusal(text, "host_cpu_without_mx", "parameter 'X' is e2m1, which target 'host_cpu_without_mx' does not hold", ":1:");
  // The descriptions hold every narrow float (each backend has the generic codec).
  for (const char* t : {"sm_90a", "host_cpu", "gfx942", "vulkan_generic"}) {
    auto r = lower_text(text, t);
    CHECK_MESSAGE(r.is_ok(), t << ": " << r.status().str());
  }
}

TEST_CASE("a buffer and a cast are refused at their statements") {
  expect_refusal(copy_kernel("f32", "e8m0", "T[i]"), "host_cpu_without_mx", "buffer 'T' is e8m0", ":2:");
  expect_refusal(copy_kernel("f32", "f32", "cast<ue4m3>(T[i])"), "host_cpu_without_mx", "a cast's result is ue4m3", ":5:");
  // A Vulkan description without Float64: the dtype is refused here, not in the backend.
  expect_refusal(copy_kernel("f64", "f32", "T[i]"), "vulkan_generic", "parameter 'X' is f64", ":1:");
}

TEST_CASE("non-saturating stores need the nonsaturating_stores feature") {
  std::string text = copy_kernel("f32", "f32", "T[i]", ", saturate=false");
  expect_refusal(text, "sm_90a", "declares only saturating narrow-float stores", ":1:");
  TargetDescription t = target("host_cpu");
  t.features.push_back(Feature::NonsaturatingStores);
  auto k = parse_and_verify(text, "k.tile");
  REQUIRE(k.is_ok());
  auto r = lower(*k, t, {});
  CHECK_MESSAGE(r.is_ok(), r.status().str());
  // saturate=true asks for nothing a target must declare.
  r = lower_text(copy_kernel("f32", "f32", "T[i]", ", saturate=true"), "sm_90a");
  CHECK_MESSAGE(r.is_ok(), r.status().str());
}

}  // namespace check_target_dtypes_test
