// The narrow floats of 2026-12-08 (FNUZ fp8, fp6, fp4, e8m0, ue4m3) compile offline (NVRTC,
// no device) for every CUDA target, through each place a kernel decodes or rounds them: a
// global load, a shared tile, a fragment, a cast, a bitcast and a store. What the generic
// codec computes is checked on the host against core (conversions_match_dtype) and on a GPU
// by gpu_conversions.
#include "plugins/cuda/tests/CudaTest.h"

namespace narrow_floats_compile_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

const char* kTargets[] = {"sm_80", "sm_89", "sm_90a", "sm_100a"};

std::string kernel(const std::string& d) {
  return "kernel narrow(X: f32[N], A: " + d + "[N], Y: " + d + "[N], Z: f32[N]) grid(ceildiv(N, 128)) threads(128) {\n"
         "  alloc s: shared " + d + "[128]\n"
         "  alloc f: fragment " + d + "[128]\n"
         "  copy X[bx * 128], s\n"
         "  copy A[bx * 128], f\n"
         "  map f = f * s + cast<" + d + ">(s * 0.5)\n"
         "  copy f, Y[bx * 128]\n"
         "  parallel i in 128 {\n"
         "    if bx * 128 + i < N {\n"
         "      store Z[bx * 128 + i] = cast<f32>(bitcast<" + d + ">(bitcast<u8>(A[bx * 128 + i])))\n"
         "    }\n"
         "  }\n"
         "}\n";
}

}  // namespace

TEST_CASE("the new narrow floats compile for every CUDA target through the generic codec") {
  TG_REQUIRE_NVRTC();
  for (const char* d : {"e4m3fnuz", "e5m2fnuz", "e2m3", "e3m2", "e2m1", "e8m0", "ue4m3"}) {
    for (const char* t : kTargets) {
      std::string what = std::string(d) + " on " + t;
      CAPTURE(what);
      auto ptx = ptx_for(kernel(d), t);
      REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
      CHECK(contains(*ptx, std::string(".target ") + t));
    }
  }
}

}  // namespace narrow_floats_compile_test
