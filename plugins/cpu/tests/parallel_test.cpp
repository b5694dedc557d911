// parallel loops: element loads and stores in every scope, local buffers (small ones in
// registers, large ones in scratch memory), nested for and if, select, casts, floor
// division and modulo of negative integers, guarded tails; and serial for/pipelined loops
// with runtime bounds around them.
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace parallel_test {

using namespace tegula;
using namespace tegula::cpu::testing;

TEST_CASE("parallel loop with local temporaries and a guarded tail, every dtype") {
  const char* tmpl = R"(
kernel par(X: {T}[N], Y: {T}[N], Z: f32[N]) grid(ceildiv(N, 64)) threads(64) {
  parallel i in 64 {
    alloc t: local f32[2]
    if bx * 64 + i < N {
      store t[0] = cast<f32>(X[bx * 64 + i])
      store t[1] = t[0] * 2.0
      store Y[bx * 64 + i] = select(t[0] > 0.0, t[1], -t[0])
      store Z[bx * 64 + i] = cast<f32>(X[bx * 64 + i])
    } else {
      store t[0] = 0.0
    }
  }
}
)";
  for (DType t : all_dtypes()) {
    CAPTURE(std::string(dtype_name(t)));
    std::string text = subst(tmpl, {{"T", dtype_name(t)}});
    for (int64_t n : {1, 63, 64, 65, 200}) check_against_reference(text, {{"N", n}}, uint64_t(n), Tolerance{});
  }
}

TEST_CASE("two-dimensional parallel loop over shared and fragment tiles with integer arithmetic") {
  const char* text = R"(
kernel par2(X: i32[M, N], Y: i32[M, N], S: f32[M, N]) grid(ceildiv(N, 8), ceildiv(M, 6)) threads(48) {
  alloc a: shared i32[6, 8]
  alloc f: fragment f32[6, 8]
  copy X[by * 6, bx * 8], a, pad=-3
  parallel (i, j) in (6, 8) {
    store f[i, j] = cast<f32>(a[i, j]) * 0.5
  }
  parallel (i, j) in (6, 8) {
    alloc q: local i32[1]
    store q[0] = a[i, j] / 7 + a[i, j] % 7 * 100 + ceildiv(a[5 - i, 7 - j], 3)
    if (by * 6 + i < M) && (bx * 8 + j < N) {
      store Y[by * 6 + i, bx * 8 + j] = q[0] - (i - 3) / 2 + (j - 5) % 3
      store S[by * 6 + i, bx * 8 + j] = f[i, j] + f[5 - i, j]
    }
  }
}
)";
  ir::Kernel k = parse(text);
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {6, 8}, {13, 17}}) {
    examples::LaunchData d = make_data(k, {{"M", m}, {"N", n}}, 4);
    Rng rng(9);
    fill_tensor(d.tensors[0], [&](int64_t) { return double(rng.integer(-1000, 1000)); });
    check_against_reference(text, d, Tolerance{});
  }
}

TEST_CASE("a large local buffer, inner serial loops inside a parallel loop") {
  const char* text = R"(
kernel big_local(X: f32[M, 300], Y: f32[M, 300]) grid(M) threads(4) {
  parallel i in 4 {
    alloc buf: local f32[300]
    for j in 0 .. 300 {
      store buf[j] = X[bx, (j + i * 7) % 300]
    }
    for j in i * 75 .. i * 75 + 75 {
      store Y[bx, j] = buf[j] + buf[299 - j] + cast<f32>(i)
    }
  }
}
)";
  // Two f32 additions round twice; the reference rounds once.
  for (int64_t m : {1, 3}) check_against_reference(text, {{"M", m}}, uint64_t(m), Tolerance{1e-6, 1e-6});
}

TEST_CASE("serial and pipelined loops with runtime bounds, if/else at block level") {
  const char* text = R"(
kernel loops(X: f32[M, N], Y: f32[M], s: f32, c: i32) grid(M) threads(32) {
  alloc acc: fragment f32[1]
  alloc x: fragment f32[1, 16]
  alloc r: fragment f32[1]
  fill acc, 0.0
  pipelined j in 0 .. ceildiv(N, 16), stages=3 {
    copy X[bx, j * 16], x
    reduce x, r, op=sum, axis=1
    if j % 2 == 0 {
      map acc = acc + r * s
    } else {
      map acc = acc - r
    }
  }
  for t in c .. 3 {
    map acc = acc * 2.0
  }
  if bx == 0 {
    fill acc, -1.0
  }
  copy acc, Y[bx]
}
)";
  ir::Kernel k = parse(text);
  for (auto [m, n, c] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{{1, 1, 0}, {3, 17, 1}, {5, 100, 5}, {2, 64, -2}}) {
    examples::LaunchData d = make_data(k, {{"M", m}, {"N", n}}, 2);
    d.scalars[2] = 1.75;
    d.scalars[3] = double(c);
    check_against_reference(text, d, Tolerance{1e-5, 1e-6});
  }
}

TEST_CASE("scalar parameters of every dtype are rounded to their dtype") {
  const char* tmpl = R"(
kernel scalars(Y: f64[4], v: {T}) grid(1) threads(4) {
  parallel i in 4 {
    store Y[i] = cast<f64>(v) + cast<f64>(i)
  }
}
)";
  for (DType t : all_dtypes()) {
    std::string text = subst(tmpl, {{"T", dtype_name(t)}});
    ir::Kernel k = parse(text);
    for (double v : {0.1, -2.5, 3.5, 1000.7, 1e10, -1e-40}) {
      CAPTURE(std::string(dtype_name(t)) + " " + std::to_string(v));
      examples::LaunchData d = make_data(k, {}, 1);
      d.scalars[1] = dtype_is_float(t) ? v : std::trunc(v);
      check_against_reference(text, d, Tolerance{});
    }
  }
}

}  // namespace parallel_test
