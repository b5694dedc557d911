// On a CUDA device: the element-wise tile ops, reductions, parallel loops and atomics match
// the reference interpreter on random inputs at edge shapes, one kernel per family with many
// ops in it: maps (every function, broadcasting, shared operands, select, casts, maxNum with
// NaN), integer floor division and modulo, fills, padded copies through shared memory,
// reductions of every kind along both axes with NaN rows and clear=false, parallel loops with
// locals, loops and branches, atomic_add into every dtype it takes from many blocks at once,
// literal fills and pads bit for bit (f64 specials, integer min reductions padded with inf),
// and parallel loops reading fragment elements through a shared copy. Skips without a device.
#include "plugins/cuda/tests/CudaTest.h"

#include <cstdint>

namespace gpu_tile_ops_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

void check(Gpu& g, const std::string& name, const std::string& text, RunOptions o) {
  CAPTURE(name);
  Status st = run_and_compare(g, text, o);
  CHECK_MESSAGE(st.is_ok(), name << ": " << st.str());
}

void put(examples::HostTensor& t, int64_t i, double v) { store_element(t.dtype, v, t.bytes.data() + i * int64_t(dtype_size(t.dtype))); }

}  // namespace

TEST_CASE("maps: every function, broadcasting, shared operands, select and casts") {
  TG_REQUIRE_GPU(gpu);
  std::string text = R"(kernel zoo(X: f32[M, 64], S: f32[M, 1], a: f32, Y: f32[M, 64], Z: f16[M, 64], W: i32[M, 64], B: i8[M, 64], E: e4m3[M, 64]) grid(ceildiv(M, 8)) threads(128) {
  alloc x: fragment f32[8, 64]
  alloc s: fragment f32[8, 1]
  alloc sh: shared f32[8, 64]
  alloc r: fragment f32[8, 64]
  alloc h: fragment f16[8, 64]
  alloc w: fragment i32[8, 64]
  alloc b: fragment i8[8, 64]
  alloc e: fragment e4m3[8, 64]
  copy X[bx * 8, 0], x
  copy S[bx * 8, 0], s
  copy X[bx * 8, 0], sh
  map r = max(x, s) + min(x * 2.0, sh) - abs(x) * exp(x) / (1.0 + exp2(x)) + sqrt(abs(x)) + rsqrt(abs(x) + 1.0) + tanh(x) + log(abs(x) + 0.5) + a
  map h = select(x > 0.0, x * 3.0, -x)
  map w = cast<i32>(x * 1000.0) + 7
  map b = x * 300.0
  map e = x * 600.0
  copy r, Y[bx * 8, 0]
  copy h, Z[bx * 8, 0]
  copy w, W[bx * 8, 0]
  copy b, B[bx * 8, 0]
  copy e, E[bx * 8, 0]
}
)";
  RunOptions o;
  o.bindings = {{"M", 37}};
  check(*gpu, "map zoo", text, o);

  std::string nan = R"(kernel nanmax(X: f32[N], Y: f32[N], Z: f32[N]) grid(ceildiv(N, 256)) threads(64) {
  alloc x: fragment f32[256]
  alloc y: fragment f32[256]
  copy X[bx * 256], x
  copy Y[bx * 256], y
  map y = max(x, y) + min(y, 0.25)
  copy y, Z[bx * 256]
}
)";
  o.bindings = {{"N", 1000}};
  o.prepare = [](examples::LaunchData& d) {
    for (int64_t i = 0; i < 1000; i += 3) put(d.tensors[0], i, NAN);
    for (int64_t i = 0; i < 1000; i += 5) put(d.tensors[1], i, NAN);
  };
  check(*gpu, "maxNum with NaN", nan, o);
}

TEST_CASE("integer arithmetic floors, saturates and converts as the interpreter does") {
  TG_REQUIRE_GPU(gpu);
  std::string text = R"(kernel ints(A: i32[N], B: i32[N], Q: i32[N], R: i32[N], C: i8[N], D: u8[N], F: f32[N], G: bool[N]) grid(ceildiv(N, 256)) threads(128) {
  parallel i in 256 {
    if bx * 256 + i < N {
      store Q[bx * 256 + i] = A[bx * 256 + i] / select(B[bx * 256 + i] == 0, 7, B[bx * 256 + i])
      store R[bx * 256 + i] = A[bx * 256 + i] % select(B[bx * 256 + i] == 0, -3, B[bx * 256 + i])
      store C[bx * 256 + i] = A[bx * 256 + i] * 3
      store D[bx * 256 + i] = A[bx * 256 + i] * 2
      store F[bx * 256 + i] = cast<f32>(A[bx * 256 + i]) / 3.0 + cast<f32>(ceildiv(A[bx * 256 + i], 4))
      store G[bx * 256 + i] = A[bx * 256 + i] > B[bx * 256 + i] && !(A[bx * 256 + i] == 0)
    }
  }
}
)";
  RunOptions o;
  o.bindings = {{"N", 1000}};
  check(*gpu, "integer zoo", text, o);
}

TEST_CASE("fills, padded copies and shared round trips") {
  TG_REQUIRE_GPU(gpu);
  std::string text = R"(kernel cp(X: bf16[M, N], Y: f32[M, N], R: f32[M], Z: i8[M, N], H: f16[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {
  alloc s: shared bf16[16, 64]
  alloc x: fragment f32[16, 64]
  alloc r: fragment f32[16]
  alloc t: shared i8[16, 64]
  copy X[by * 16, bx * 64], s, pad=-3.5
  copy s, x
  map x = x * 2.0
  copy x, Y[by * 16, bx * 64]
  reduce x, r, op=sum, axis=1
  if bx == 0 {
    copy r, R[by * 16]
  }
  fill t, -7
  copy t, Z[by * 16, bx * 64]
  fill H[by * 16, bx * 64], 2.5, extent=[16, 64]
}
)";
  RunOptions o;
  o.bindings = {{"M", 45}, {"N", 50}};
  check(*gpu, "fills and copies", text, o);
}

TEST_CASE("reductions of every kind, along both axes, into fragments and shared memory") {
  TG_REQUIRE_GPU(gpu);
  for (int threads : {128, 64, 1024}) {
    std::string t = std::to_string(threads);
    std::string text = "kernel red(X: f32[M, 256], S: f32[M], MX: f32[M], MN: f32[M], AM: f32[M], C0: f32[B, 256], SS: f32[M], I: i32[M]) grid(ceildiv(M, 4)) threads(" + t + R"() {
  alloc x: fragment f32[4, 256]
  alloc s: fragment f32[4]
  alloc mx: fragment f32[4]
  alloc mn: fragment f32[4, 1]
  alloc am: fragment f32[4]
  alloc c0: shared f32[1, 256]
  alloc sh: shared f32[4, 256]
  alloc ss: shared f32[4]
  alloc xi: fragment i32[4, 256]
  alloc si: fragment i32[4]
  copy X[bx * 4, 0], x
  copy X[bx * 4, 0], sh
  reduce x, s, op=sum, axis=1
  reduce x, mx, op=max, axis=1
  reduce x, mn, op=min, axis=1
  fill am, 0.25
  reduce x, am, op=absmax, axis=1, clear=false
  reduce x, c0, op=sum, axis=0
  reduce sh, ss, op=max, axis=1
  map xi = cast<i32>(x * 100.0)
  reduce xi, si, op=sum, axis=1
  copy s, S[bx * 4]
  copy mx, MX[bx * 4]
  copy am, AM[bx * 4]
  copy ss, SS[bx * 4]
  copy si, I[bx * 4]
  copy c0, C0[bx, 0]
  map x = x
  copy mn, X[bx * 4, 0], extent=[4, 1]
}
)";
    // (the last copy writes the min into column 0 of X, which makes X an output too)
    RunOptions o;
    o.bindings = {{"M", 22}, {"B", 6}};
    o.prepare = [](examples::LaunchData& d) {
      for (int64_t c = 0; c < 256; ++c) put(d.tensors[0], 5 * 256 + c, NAN);  // an all-NaN row
      put(d.tensors[0], 7 * 256 + 3, NAN);                                   // one NaN in a row
      put(d.tensors[0], 9 * 256 + 100, -INFINITY);
    };
    check(*gpu, "reductions, " + t + " threads", text, o);
  }
}

TEST_CASE("parallel loops with locals, serial loops and branches") {
  TG_REQUIRE_GPU(gpu);
  std::string text = R"(kernel par(X: f32[N], Y: f32[N], Z: i32[N]) grid(ceildiv(N, 512)) threads(128) {
  parallel i in 512 {
    alloc acc: local f32[2]
    if bx * 512 + i < N {
      store acc[0] = X[bx * 512 + i]
      store acc[1] = 0.0
      for j in 0 .. 4 {
        store acc[1] = acc[1] + acc[0] * cast<f32>(j)
      }
      if acc[0] > 0.0 {
        store Y[bx * 512 + i] = acc[1]
      } else {
        store Y[bx * 512 + i] = -acc[1] - 1.0
      }
      store Z[bx * 512 + i] = (bx * 512 + i) % 7 - (bx * 512 + i) / 5
    }
  }
}
)";
  RunOptions o;
  o.bindings = {{"N", 1300}};
  check(*gpu, "parallel", text, o);
}

TEST_CASE("atomic_add from many blocks into every dtype it takes") {
  TG_REQUIRE_GPU(gpu);
  std::string text = R"(kernel at(X: f32[M, 64], Y32: f32[8, 64], Y16: f16[8, 64], YB: bf16[8, 64], Y64: f64[8, 64]) grid(ceildiv(M, 8)) threads(128) {
  alloc x: fragment f32[8, 64]
  alloc sh: shared f32[8, 64]
  copy X[bx * 8, 0], x
  copy X[bx * 8, 0], sh
  atomic_add x, Y32[0, 0]
  atomic_add x, Y16[0, 0]
  atomic_add sh, YB[0, 0]
  atomic_add x, Y64[0, 0]
}
)";
  RunOptions o;
  o.bindings = {{"M", 40}};
  o.use_default_tolerance = false;
  o.tolerance = {.abs = 2e-2, .rel = 3e-2};  // the order of the additions (and so each one's rounding) differs
  o.prepare = [](examples::LaunchData& d) {
    for (size_t t = 1; t <= 4; ++t)
      for (int64_t i = 0; i < 512; ++i) put(d.tensors[t], i, 0.125 * double((i * 7) % 13) - 0.5);
  };
  check(*gpu, "float atomics", text, o);

  std::string ints = R"(kernel ati(X: i32[M, 64], Y: i32[8, 64]) grid(ceildiv(M, 8)) threads(64) {
  alloc x: fragment i32[8, 64]
  copy X[bx * 8, 0], x
  atomic_add x, Y[0, 0]
}
)";
  RunOptions oi;
  oi.bindings = {{"M", 64}};
  oi.prepare = [](examples::LaunchData& d) {
    for (int64_t i = 0; i < 512; ++i) put(d.tensors[1], i, double(i - 256));
    put(d.tensors[1], 5, 2147483000.0);  // saturates
  };
  check(*gpu, "integer atomics", ints, oi);
}

TEST_CASE("literal fills round once to their dtype: f64 specials bit for bit") {
  TG_REQUIRE_GPU(gpu);
  // Bit-exact: an f64 subnormal lost to 0 would pass any relative tolerance.
  RunOptions exact;
  exact.use_default_tolerance = false;
  exact.tolerance = Tolerance{};
  exact.bindings = {{"M", 17}, {"N", 67}};
  for (const char* value : {"1.7976931348623157e308", "5e-324", "0.1", "1.0e300", "-1.0e300"}) {
    std::string text = std::string("kernel fill_tile(Y: f64[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n") +
                       "  alloc t: fragment f64[16, 64]\n  fill t, " + value + "\n  copy t, Y[by * 16, bx * 64]\n}\n";
    check(*gpu, std::string("f64 fill ") + value, text, exact);
  }
}

TEST_CASE("integer min reductions padded with inf give the true minimum") {
  TG_REQUIRE_GPU(gpu);
  RunOptions exact;
  exact.use_default_tolerance = false;
  exact.tolerance = Tolerance{};
  for (const char* d : {"i8", "u8", "i32"}) {
    std::string t = d;
    std::string text = "kernel reduce_rows(X: " + t + "[M, N], Y: " + t + "[M]) grid(ceildiv(M, 8)) threads(128) {\n  alloc xs: fragment " + t +
                       "[8, 64]\n  alloc acc: fragment " + t + "[8]\n  fill acc, inf\n  for j in 0 .. ceildiv(N, 64) {\n"
                       "    copy X[bx * 8, j * 64], xs, pad=inf\n    reduce xs, acc, op=min, axis=1, clear=false\n  }\n  copy acc, Y[bx * 8]\n}\n";
    for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {9, 67}, {5, 33}}) {
      RunOptions o = exact;
      o.bindings = {{"M", m}, {"N", n}};
      check(*gpu, "min " + t + " " + std::to_string(m) + "x" + std::to_string(n), text, o);
    }
  }
}

TEST_CASE("parallel loops read any fragment element through a shared copy") {
  TG_REQUIRE_GPU(gpu);
  for (const char* d : {"f64", "f32", "f16", "bf16", "e4m3", "i8", "u8", "i32", "bool"}) {
    std::string t = d;
    std::string value = t == "bool" ? "!f[15 - i, j]" : "f[15 - i, j] * 3";
    std::string text = "kernel par_fragment(X: " + t + "[M, N], Y: " + t + "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n" +
                       "  alloc f: fragment " + t + "[16, 64]\n  copy X[by * 16, bx * 64], f, pad=1\n  parallel (i, j) in (16, 64) {\n" +
                       "    if by * 16 + i < M && bx * 64 + j < N {\n      store Y[by * 16 + i, bx * 64 + j] = " + value + "\n    }\n  }\n}\n";
    RunOptions o;
    o.bindings = {{"M", 21}, {"N", 100}};
    check(*gpu, "fragment read " + t, text, o);
  }
  // Restaged on every trip of a loop that rewrites the fragment.
  std::string again = "kernel again(X: f32[64], Y: f32[4, 64]) grid(1) threads(64) {\n  alloc f: fragment f32[64]\n"
                      "  copy X[0], f\n  for k in 0 .. 4 {\n    parallel i in 64 {\n      store Y[k, i] = f[63 - i]\n    }\n"
                      "    map f = f * 2.0\n  }\n}\n";
  check(*gpu, "fragment read, restaged", again, RunOptions{});
}

}  // namespace gpu_tile_ops_test
