// fill writes its value, rounded to the dtype, to every element of the tile and nothing
// outside a global tensor; for every dtype and values that round, saturate or are special.
#include "plugins/cpu/tests/CpuTestUtil.h"

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const char* kFill = R"(
kernel fill_values(Y: {T}[M, N], Z: {T}[M, N]) grid(ceildiv(N, 8), ceildiv(M, 4)) threads(32) {
  alloc t: fragment {T}[4, 8]
  fill t, {V}
  copy t, Y[by * 4, bx * 8]
  fill Z[by * 4, bx * 8], {V}, extent=[4, 8]
}
)";

}  // namespace

TEST_CASE("fill every dtype with values that round, saturate or are special") {
  for (DType t : all_dtypes()) {
    for (const char* v : {"0.0", "-0.0", "1", "-7", "2.5", "3.5", "0.1", "1e-40", "1000.7", "70000.0", "-1e300", "inf",
                          "-inf", "nan", "257", "-129"}) {
      CAPTURE(dtype_name(t));
      CAPTURE(v);
      std::string text = subst(kFill, {{"T", dtype_name(t)}, {"V", v}});
      check_against_reference(text, {{"M", 7}, {"N", 13}}, 1, Tolerance{});
    }
  }
}

TEST_CASE("fill with an expression of the block index") {
  const char* text = R"(
kernel fill_index(Y: i32[M, N], Z: f32[M, N]) grid(ceildiv(N, 8), ceildiv(M, 4)) threads(32) {
  fill Y[by * 4, bx * 8], bx * 100 + by, extent=[4, 8]
  fill Z[by * 4, bx * 8], cast<f32>(by) / 3.0, extent=[4, 8]
}
)";
  check_against_reference(text, {{"M", 9}, {"N", 17}}, 1, Tolerance{});
}
