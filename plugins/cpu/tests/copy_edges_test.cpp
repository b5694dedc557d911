// Copies of every rank (1 to 4) between global tensors and shared/fragment tiles, at tensor
// edges: the part outside the tensor is not written, reads past the edge give `pad`,
// offsets may leave a whole row outside; for every dtype, bit-exact with the reference.
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace copy_edges_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

// In: a tile around (bx, by) read with padding into a fragment, mapped through a shared
// buffer of another dtype, written back with masking.
const char* kRank2 = R"(
kernel edges2(X: {T}[M, N], Y: {T}[M, N]) grid(ceildiv(N, 8), ceildiv(M, 5)) threads(32) {
  alloc a: fragment {T}[5, 8]
  alloc s: shared f32[5, 8]
  copy X[by * 5, bx * 8], a, pad={PAD}
  copy a, s
  copy s, Y[by * 5, bx * 8]
}
)";

const char* kRank1 = R"(
kernel edges1(X: {T}[N], Y: {T}[N]) grid(ceildiv(N, 16)) threads(16) {
  alloc a: shared {T}[16]
  copy X[bx * 16], a, pad={PAD}
  copy a, Y[bx * 16]
}
)";

// Rank 3 and 4 with tiles that straddle every edge, and a shifted read (offset + 1) so
// that rows past the far edge come from padding.
const char* kRank3 = R"(
kernel edges3(X: {T}[A, B, C], Y: {T}[A, B, C]) grid(ceildiv(C, 4), ceildiv(B, 3), A) threads(8) {
  alloc t: fragment {T}[1, 3, 4]
  copy X[bz, by * 3 + 1, bx * 4], t, pad={PAD}
  copy t, Y[bz, by * 3, bx * 4]
}
)";

const char* kRank4 = R"(
kernel edges4(X: {T}[A, B, C, D], Y: {T}[A, B, C, D]) grid(ceildiv(D, 5), B, A) threads(4) {
  alloc t: shared {T}[1, 1, 3, 5]
  for c in 0 .. ceildiv(C, 3) {
    copy X[bz, by, c * 3, bx * 5], t, pad={PAD}
    copy t, Y[bz, by, c * 3, bx * 5]
  }
}
)";

// Global to global with an explicit extent larger than the tensor.
const char* kGlobal = R"(
kernel edges_global(X: {T}[M, N], Y: {T}[M, N]) grid(1) threads(1) {
  copy X[0, 1], Y[0, 0], extent=[7, 9], pad={PAD}
}
)";

void run(const char* tmpl, DType t, const std::map<std::string, int64_t>& bind) {
  for (const char* pad : {"-inf", "300.5"}) {
    CAPTURE(dtype_name(t));
    CAPTURE(pad);
    std::string text = subst(tmpl, {{"T", dtype_name(t)}, {"PAD", pad}});
    check_against_reference(text, bind, 3, Tolerance{});
  }
}

}  // namespace

TEST_CASE("rank 1 and 2 tiles at tensor edges, every dtype") {
  for (DType t : all_dtypes()) {
    for (int64_t n : {1, 15, 16, 17, 37}) run(kRank1, t, {{"N", n}});
    for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {5, 8}, {7, 13}, {11, 3}}) run(kRank2, t, {{"M", m}, {"N", n}});
  }
}

TEST_CASE("rank 3 and 4 tiles at tensor edges") {
  for (DType t : {DType::F32, DType::BF16, DType::E4M3, DType::I32}) {
    run(kRank3, t, {{"A", 2}, {"B", 7}, {"C", 9}});
    run(kRank3, t, {{"A", 1}, {"B", 1}, {"C", 1}});
    run(kRank4, t, {{"A", 2}, {"B", 3}, {"C", 7}, {"D", 11}});
  }
}

TEST_CASE("global to global copy with an extent past both edges") {
  for (DType t : all_dtypes()) {
    run(kGlobal, t, {{"M", 4}, {"N", 5}});
    run(kGlobal, t, {{"M", 9}, {"N", 12}});
  }
}

}  // namespace copy_edges_test
