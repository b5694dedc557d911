// atomic_add from many blocks running on every core into the same elements loses no
// update, for every destination dtype it allows (f32, f64, f16, bf16, i32) and several
// source dtypes, with masking at the tensor's edge. The inputs are small integers, so
// every order of additions gives the same exact sum and the result must match the
// reference bit for bit.
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace atomic_add_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const char* kAtomic = R"(
kernel atomic(X: {S}[G, N], Y: {D}[1, N]) grid(G) threads(32) {
  alloc x: fragment {S}[1, 16]
  for j in 0 .. ceildiv(N, 16) {
    copy X[bx, j * 16], x
    atomic_add x, Y[0, j * 16]
  }
}
)";

}  // namespace

TEST_CASE("atomic_add from many blocks into shared outputs") {
  std::vector<std::pair<DType, DType>> types = {{DType::F32, DType::F32}, {DType::F32, DType::F64}, {DType::F16, DType::F16},
                                                {DType::F32, DType::BF16}, {DType::I32, DType::I32}, {DType::I8, DType::F32},
                                                {DType::F64, DType::F32}, {DType::F32, DType::I32}};
  for (auto [src, dst] : types) {
    CAPTURE(std::string(dtype_name(src)) + " into " + dtype_name(dst));
    std::string text = subst(kAtomic, {{"S", dtype_name(src)}, {"D", dtype_name(dst)}});
    ir::Kernel k = parse(text);
    for (auto [g, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {200, 16}, {97, 37}}) {
      examples::LaunchData d = make_data(k, {{"G", g}, {"N", n}}, uint64_t(g));
      Rng rng{uint64_t(n)};
      fill_tensor(d.tensors[0], [&](int64_t) { return double(rng.integer(-1, 1)); });
      fill_tensor(d.tensors[1], [&](int64_t) { return double(rng.integer(-20, 20)); });
      check_against_reference(text, d, Tolerance{});
    }
  }
}

}  // namespace atomic_add_test
