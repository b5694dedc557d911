// validate_launch checks the grid: a grid handed to the plugin must be the one the kernel's
// grid expressions give (1 past the kernel's dimensions), the runtime's computed grid is those
// expressions' values, an empty grid (a 0 the kernel's grid gives) runs nothing and is fine,
// and no launch runs more than 2^48 blocks, with or without the kernel's expressions.
#include "plugins/support/tests/LaunchCheckTestUtil.h"

namespace launch_check_grid_test {

using namespace tegula;
using namespace tegula::plugin;
using namespace tegula::plugin::testing;

namespace {

const char* kKernel = R"(
kernel tiles(X: f32[A, B]) grid(ceildiv(B, 4), A) threads(4) {
  alloc t: fragment f32[1]
  fill t, 0.0
}
)";

}  // namespace

TEST_CASE("a given grid must be the kernel's") {
  ir::Kernel k = parse(kKernel);
  LaunchSignature sig = launch_signature(k);
  FakeDevice dev;
  tg_buffer* x = dev.add(1 << 12);
  auto args = [&](int64_t a, int64_t b) { return std::vector<tg_launch_arg>{buffer_arg(x), int_arg(a), int_arg(b)}; };
  auto r = validate(sig, dev, args(3, 10), {3, 3, 1});
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(*r == std::array<uint32_t, 3>{3, 3, 1});
  check_refused(validate(sig, dev, args(3, 10), {2, 3, 1}), ErrorCode::InvalidArgument,
                "grid[0] is 2, the kernel's grid gives 3");
  check_refused(validate(sig, dev, args(3, 10), {3, 3, 2}), ErrorCode::InvalidArgument,
                "grid[2] is 2, the kernel's grid gives 1");
  check_refused(validate(sig, dev, args(3, 10), {3, 0, 1}), ErrorCode::InvalidArgument,
                "grid[1] is 0, the kernel's grid gives 3");
}

TEST_CASE("a computed grid is the kernel's, whatever the caller put there") {
  ir::Kernel k = parse(kKernel);
  LaunchSignature sig = launch_signature(k);
  FakeDevice dev;
  tg_buffer* x = dev.add(1 << 12);
  auto r = validate(sig, dev, {buffer_arg(x), int_arg(5), int_arg(9)}, {0, 0, 0}, GridCheck::Computed);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(*r == std::array<uint32_t, 3>{3, 5, 1});
}

TEST_CASE("an empty grid is accepted when the kernel's grid is empty") {
  ir::Kernel k = parse(kKernel);
  LaunchSignature sig = launch_signature(k);
  FakeDevice dev;
  tg_buffer* x = dev.add(0);
  auto r = validate(sig, dev, {buffer_arg(x), int_arg(0), int_arg(9)}, {3, 0, 1});
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK((*r)[1] == 0);
}

TEST_CASE("more than 2^48 blocks are refused from the kernel's expressions") {
  ir::Kernel k = parse(R"(
kernel huge(X: f32[A, Z], Y: f32[B, Z], W: f32[C, Z]) grid(A, B, C) threads(1) {
  alloc t: fragment f32[1]
  fill t, 0.0
}
)");
  LaunchSignature sig = launch_signature(k);
  FakeDevice dev;
  tg_buffer* b = dev.add(0);
  int64_t big = int64_t(1) << 31;
  std::vector<tg_launch_arg> args = {buffer_arg(b), buffer_arg(b), buffer_arg(b), int_arg(4), int_arg(0), int_arg(big), int_arg(big)};
  auto symbols = k.symbols();
  REQUIRE(symbols == std::vector<std::string>{"A", "Z", "B", "C"});
  check_refused(validate(sig, dev, args, {4, uint32_t(big), uint32_t(big)}, GridCheck::Computed), ErrorCode::InvalidArgument,
                "a grid of 4 x 2147483648 x 2147483648 blocks is more than the 281474976710656 one launch may run");
  args[3] = int_arg(0);  // an empty grid runs nothing, however large the rest
  CHECK(validate(sig, dev, args, {0, uint32_t(big), uint32_t(big)}).is_ok());
}

TEST_CASE("without the kernel's expressions, only the block count of the given grid is checked") {
  ir::Kernel k = parse(kKernel);
  LaunchSignature sig = launch_signature(k);
  sig.grid_of = nullptr;  // a plugin that keeps no IR (cuda)
  FakeDevice dev;
  tg_buffer* x = dev.add(1 << 12);
  std::vector<tg_launch_arg> args = {buffer_arg(x), int_arg(3), int_arg(10)};
  auto r = validate(sig, dev, args, {7, 1, 2});
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(*r == std::array<uint32_t, 3>{7, 1, 2});
  CHECK(validate(sig, dev, args, {1u << 24, 1u << 24, 1}).is_ok());  // exactly 2^48
  check_refused(validate(sig, dev, args, {1u << 24, 1u << 24, 2}), ErrorCode::InvalidArgument,
                "a grid of 16777216 x 16777216 x 2 blocks is more than the 281474976710656 one launch may run");
  check_refused(validate(sig, dev, args, {UINT32_MAX, UINT32_MAX, UINT32_MAX}), ErrorCode::InvalidArgument,
                "a grid of 4294967295 x 4294967295 x 4294967295 blocks is more than the 281474976710656 one launch may run");
  CHECK(validate(sig, dev, args, {UINT32_MAX, 0, UINT32_MAX}).is_ok());  // empty
}

}  // namespace launch_check_grid_test
