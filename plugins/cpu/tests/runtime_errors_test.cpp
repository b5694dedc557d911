// Misuse at run time is an error from launch, never a crash: an element index outside its
// buffer (load or store, any scope, block-level loads too), integer division or modulo by zero, and a shared tile
// whose dynamic offset puts it outside its buffer. The reference interpreter refuses the
// same launches.
#include "plugins/cpu/tests/CpuTestUtil.h"

#include <cstdint>

namespace runtime_errors_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

void expect_launch_error(const std::string& text, const std::map<std::string, int64_t>& bind, const char* what) {
  CAPTURE(what);
  ir::Kernel k = parse(text);
  examples::LaunchData d = make_data(k, bind, 1);
  examples::LaunchData ref = d;
  CHECK_FALSE(run_reference(k, ref).is_ok());
  Status st = run_cpu(text, k, d);
  CHECK_FALSE(st.is_ok());
  CHECK_MESSAGE(st.message().find(what) != std::string::npos, st.str());
}

}  // namespace

TEST_CASE("element loads and stores outside their buffers") {
  expect_launch_error(R"(
kernel load_oob(X: f32[N], Y: f32[N]) grid(1) threads(8) {
  parallel i in 8 {
    store Y[i] = X[i + N]
  }
}
)", {{"N", 8}}, "outside its buffer");
  expect_launch_error(R"(
kernel store_oob(X: f32[N], Y: f32[N]) grid(1) threads(8) {
  parallel i in 8 {
    store Y[i * 1000] = X[i]
  }
}
)", {{"N", 8}}, "outside its buffer");
  expect_launch_error(R"(
kernel shared_oob(X: i32[N], Y: f32[N]) grid(1) threads(8) {
  alloc s: shared f32[8]
  parallel i in 8 {
    store s[X[i] + 100] = 1.0
  }
  copy s, Y[0]
}
)", {{"N", 8}}, "outside its buffer");
  expect_launch_error(R"(
kernel negative(X: f32[N], Y: f32[N]) grid(1) threads(8) {
  parallel i in 8 {
    store Y[i] = X[i - 4]
  }
}
)", {{"N", 8}}, "outside its buffer");
}

TEST_CASE("a block-level load outside its tensor: a loop bound, an if, a copy offset") {
  // One block more than the tensor has elements: block 4 reads F[4] (or Cu[5]).
  expect_launch_error(R"(
kernel bound_oob(X: f32[N, 8], Cu: i32[G], Y: f32[N, 8]) grid(G) threads(8) {
  alloc r: fragment f32[1, 8]
  for j in Cu[bx] .. Cu[bx + 1] {
    copy X[j, 0], r
    copy r, Y[j, 0]
  }
}
)", {{"N", 8}, {"G", 5}}, "outside its buffer");
  expect_launch_error(R"(
kernel flag_oob(X: f32[N, 8], F: i32[G], Y: f32[N, 8]) grid(G + 1) threads(8) {
  alloc r: fragment f32[1, 8]
  if F[bx] > 0 {
    copy X[0, 0], r
    copy r, Y[0, 0]
  }
}
)", {{"N", 8}, {"G", 4}}, "outside its buffer");
  expect_launch_error(R"(
kernel offset_oob(X: f32[N, 8], T: i32[G], Y: f32[N, 8]) grid(G + 1) threads(8) {
  alloc r: fragment f32[1, 8]
  copy X[T[bx], 0], r
  copy r, Y[bx, 0]
}
)", {{"N", 8}, {"G", 4}}, "outside its buffer");
}

TEST_CASE("integer division and modulo by zero") {
  expect_launch_error(R"(
kernel divide(Y: i32[N], d: i32) grid(1) threads(8) {
  parallel i in 8 {
    store Y[i] = i / d
  }
}
)", {{"N", 8}, {"d", 0}}, "division by zero");
  expect_launch_error(R"(
kernel modulo(Y: i32[N]) grid(1) threads(8) {
  parallel i in 8 {
    store Y[i] = 5 % (i - i)
  }
}
)", {{"N", 8}}, "division by zero");
}

TEST_CASE("a shared tile moved outside its buffer by a dynamic offset") {
  expect_launch_error(R"(
kernel tile_oob(X: f32[N], Y: f32[N]) grid(ceildiv(N, 8)) threads(8) {
  alloc s: shared f32[16]
  copy X[bx * 8], s[bx * 8], extent=[8]
  copy s[0], Y[bx * 8], extent=[8]
}
)", {{"N", 32}}, "outside its shared or fragment buffer");
}

TEST_CASE("after an error the device keeps working") {
  const char* good = R"(
kernel fine(X: f32[N], Y: f32[N]) grid(ceildiv(N, 8)) threads(8) {
  alloc s: shared f32[8]
  copy X[bx * 8], s
  copy s, Y[bx * 8]
}
)";
  check_against_reference(good, {{"N", 21}}, 1, Tolerance{});
}

}  // namespace runtime_errors_test
