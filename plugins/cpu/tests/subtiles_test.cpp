// Tiles inside shared and fragment buffers: copies between sub-tiles at constant and
// dynamic offsets, overlapping copies within one buffer (the whole source is read before
// anything is written, as a copy), and maps over rank-3 and rank-4 tiles broadcasting
// along several dimensions at once.
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace subtiles_test {

using namespace tegula;
using namespace tegula::cpu::testing;

TEST_CASE("sub-tile copies and overlapping copies within one buffer") {
  const char* text = R"(
kernel subtiles(X: f32[M, 12], Y: f32[M, 12], Z: bf16[M, 12]) grid(ceildiv(M, 6)) threads(8) {
  alloc s: shared f32[6, 12]
  alloc f: fragment bf16[6, 12]
  fill f, 1.5
  copy X[bx * 6, 0], s, pad=-2
  copy s[0, 1], s[0, 0], extent=[6, 11]
  copy s[1, 0], s[0, 0], extent=[5, 12]
  copy s[2, 2], f[bx % 2, 3], extent=[3, 4]
  copy s[0, 0], f[3, 0], extent=[3, 3]
  for i in 0 .. 2 {
    copy f[i * 3, 6], s[i * 3, 6], extent=[3, 6]
  }
  copy s, Y[bx * 6, 0]
  copy f, Z[bx * 6, 0]
}
)";
  ir::Kernel k = parse(text);
  for (int64_t m : {1, 6, 7, 20}) {
    check_against_reference(text, make_data(k, {{"M", m}}, uint64_t(m)), Tolerance{});
  }
}

TEST_CASE("maps over rank 3 and 4 tiles with broadcasting") {
  const char* text = R"(
kernel broadcast(X: f32[2, 3, 4, 5], R: f32[1, 3, 1, 5], C: f16[2, 1, 4, 1], S: f32[1, 1, 1, 1], Y: f32[2, 3, 4, 5], W: f16[3, 4, 5]) grid(1) threads(8) {
  alloc x: fragment f32[2, 3, 4, 5]
  alloc r: fragment f32[1, 3, 1, 5]
  alloc c: shared f16[2, 1, 4, 1]
  alloc s: fragment f32[1, 1, 1, 1]
  alloc w: fragment f16[3, 4, 5]
  alloc v: fragment f32[1, 4, 1]
  copy X, x
  copy R, r
  copy C, c
  copy S, s
  map x = x * r + c - s
  copy x, Y
  fill v, 0.5
  map w = max(v, -v) * 3.0
  copy w, W
}
)";
  for (uint64_t seed : {1u, 2u}) check_against_reference(text, {}, seed, Tolerance{1e-6, 1e-6});
}

}  // namespace subtiles_test
