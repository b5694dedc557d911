// The bit operators, bitcast and the math functions of ir/OpList.h compile offline (NVRTC, no
// device) for every CUDA target, in f32 and f64, and the PTX shifts with masked counts
// (`and.b32 ..., 31` before each shift, so no count is ever past 31).
#include "plugins/cuda/tests/CudaTest.h"

namespace bit_ops_and_math_compile_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

const char* kTargets[] = {"sm_80", "sm_89", "sm_90a", "sm_100a"};

const char* kKernel = R"(
kernel bits(W: i32[N], C: i32[N], B: u8[N], X: f32[N], D: f64[N], Z: i32[N], Y: f32[N], E: f64[N], Q: e4m3[N])
    grid(ceildiv(N, 128)) threads(128) {
  parallel i in 128 {
    if bx * 128 + i < N {
      store Z[bx * 128 + i] = (W[bx * 128 + i] << C[bx * 128 + i]) ^ (W[bx * 128 + i] >> C[bx * 128 + i]) |
                              (W[bx * 128 + i] >>> C[bx * 128 + i]) & ~bitcast<i32>(X[bx * 128 + i])
      store Y[bx * 128 + i] = log2(X[bx * 128 + i]) + log1p(X[bx * 128 + i]) + erf(X[bx * 128 + i]) +
                              sigmoid(X[bx * 128 + i]) + bitcast<f32>(W[bx * 128 + i]) + cast<f32>(bitcast<i8>(B[bx * 128 + i]))
      store E[bx * 128 + i] = log2(D[bx * 128 + i]) + log1p(D[bx * 128 + i]) + erf(D[bx * 128 + i]) +
                              sigmoid(D[bx * 128 + i]) + bitcast<f64>(D[bx * 128 + i])
      store Q[bx * 128 + i] = bitcast<e4m3>(B[bx * 128 + i])
    }
  }
}
)";

}  // namespace

TEST_CASE("bit operators, bitcast, log2, log1p, erf and sigmoid compile for every CUDA target") {
  TG_REQUIRE_NVRTC();
  for (const char* t : kTargets) {
    CAPTURE(t);
    auto ptx = ptx_for(kKernel, t);
    REQUIRE_MESSAGE(ptx.is_ok(), ptx.status().str());
    CHECK(contains(*ptx, std::string(".target ") + t));
    CHECK(contains(*ptx, "shl.b32"));
    CHECK(contains(*ptx, "shr.u32"));
    CHECK(contains(*ptx, ", 31;"));  // the count mask
  }
}

}  // namespace bit_ops_and_math_compile_test
