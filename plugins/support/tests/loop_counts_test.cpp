// check_loop_counts refuses a launch in which a serial loop's bounds, a value computed on
// the way to them or its trip count could leave a narrower counter (i32, as Vulkan's), from
// what the launch fixes: constants, shape symbols, scalars, the grid's block indices, the
// enclosing loops' variables and elements' dtypes; loops that fit run, up to the margin.
#include "plugins/support/IntegerWidths.h"

#include <algorithm>

#include "plugins/support/tests/LaunchCheckTestUtil.h"

namespace loop_counts_test {

using namespace tegula;
using namespace tegula::plugin;
using namespace tegula::plugin::testing;

namespace {

/// A kernel of one tensor Y: i32[N] (plus `params`) whose first thread runs `loops` around a
/// store, launched with `args` after the tensor (the parameters', then N and the other
/// shape symbols), the grid `grid`, counted in `bits`.
Status counts(const std::string& params, const std::string& loops, std::vector<tg_launch_arg> args,
              std::array<uint32_t, 3> grid = {1, 1, 1}, int bits = 32) {
  std::string text = "kernel k(Y: i32[N]" + params + ") grid(N) threads(1) {\n  parallel t in 1 {\n    " + loops +
                     " {\n      store Y[0] = 1\n    }" + std::string(std::count(loops.begin(), loops.end(), '{'), '}') +
                     "\n  }\n}\n";
  ir::Kernel k = parse(text.c_str());
  FakeDevice dev;
  args.insert(args.begin(), buffer_arg(dev.add(1 << 12)));
  tg_launch_params p{};
  p.struct_size = sizeof p;
  for (int d = 0; d < 3; ++d) p.grid[d] = grid[d];
  p.args = args.data();
  p.arg_count = args.size();
  return check_loop_counts(k, p, grid, bits);
}

void check_refused(const Status& st, const std::string& message) {
  CHECK(st.code() == ErrorCode::Unsupported);
  CHECK(st.message() == message);
}

const std::string kRule = "; this device counts loops in 32-bit integers, so it runs loops whose bounds stay within +-2147483631 and "
                          "whose trip count stays below 2^31";

}  // namespace

TEST_CASE("constant trip counts past the counter are refused, with the loop and the value") {
  // The cases: 2^32 + 1 iterations ran once or twice, 2^62 none, both "successfully".
  check_refused(counts("", "for i in 0 .. 4294967297", {int_arg(1)}),
                "loop 'i in 0 .. 4294967297': its upper bound may be 4294967297 for this launch" + kRule);
  check_refused(counts("", "for i in 0 .. 4611686018427387904", {int_arg(1)}),
                "loop 'i in 0 .. 4611686018427387904': its upper bound may be 4611686018427387904 for this launch" + kRule);
  // Both bounds inside, their difference not.
  check_refused(counts("", "for i in -2000000000 .. 2000000000", {int_arg(1)}),
                "loop 'i in -2000000000 .. 2000000000': its trip count may be 4000000000 for this launch" + kRule);
  CHECK(counts("", "for i in -1000000000 .. 1000000000", {int_arg(1)}).is_ok());
  // The margin: the last bound allowed, and one past it.
  CHECK(counts("", "for i in 2147483600 .. 2147483631", {int_arg(1)}).is_ok());
  CHECK_FALSE(counts("", "for i in 2147483600 .. 2147483632", {int_arg(1)}).is_ok());
}

TEST_CASE("bounds from shape symbols and scalars are checked with this launch's values") {
  // N is the tensor's length, G the grid; M a symbol only the loop uses, through a scalar's
  // dtype (an i32 scalar saturates, as the kernel sees it).
  std::string loops = "for i in 0 .. M * s";
  auto args = [](int64_t s, int64_t m) { return std::vector<tg_launch_arg>{int_arg(s), buffer_arg(nullptr), int_arg(1), int_arg(m)}; };
  CHECK(counts(", s: i32, Z: f32[M]", loops, args(3, 1000)).is_ok());
  check_refused(counts(", s: i32, Z: f32[M]", loops, args(65536, 65536)),
                "loop 'i in 0 .. M * s': its upper bound may be 4294967296 for this launch" + kRule);
  // A product that wraps before a division brings it back: 65536 * 65536 / 65536 is 65536,
  // and 0 in 32 bits.
  check_refused(counts(", s: i32, Z: f32[M]", "for i in 0 .. M * s / M", args(65536, 65536)),
                "loop 'i in 0 .. M * s / M': 'M * s', computed on the way to its bounds, may be 4294967296 for this launch" + kRule);
  // A scalar past i32 is what the kernel sees, saturated: 2^31 - 1 times 2.
  check_refused(counts(", s: i32, Z: f32[M]", loops, args(int64_t(1) << 40, 2)),
                "loop 'i in 0 .. M * s': its upper bound may be 4294967294 for this launch" + kRule);
}

TEST_CASE("block indices, enclosing loops and elements give ranges") {
  // bx * 100000 reaches 2^31 past 21475 blocks.
  CHECK(counts("", "for i in 0 .. bx * 100000", {int_arg(21000)}, {21000, 1, 1}).is_ok());
  check_refused(counts("", "for i in 0 .. bx * 100000", {int_arg(30000)}, {30000, 1, 1}),
                "loop 'i in 0 .. bx * 100000': its upper bound may be anything in [0, 2999900000] for this launch" + kRule);
  // The inner loop's bound grows with the outer loop's variable.
  CHECK(counts("", "for i in 0 .. 40000 {\n    for j in 0 .. i * i", {int_arg(1)}).is_ok());
  check_refused(counts("", "for i in 0 .. 50000 {\n    for j in 0 .. i * i", {int_arg(1)}),
                "loop 'j in 0 .. i * i': its upper bound may be anything in [0, 2499900001] for this launch" + kRule);
  // An element is anything its dtype holds: a u8 count fits, a sum of two i32 elements may not.
  CHECK(counts(", C: u8[4]", "for i in 0 .. C[0] * 1000", {buffer_arg(nullptr), int_arg(1)}).is_ok());
  check_refused(counts(", C: i32[4]", "for i in 0 .. C[0] + C[1]", {buffer_arg(nullptr), int_arg(1)}),
                "loop 'i in 0 .. C[0] + C[1]': its upper bound may be anything in [-4294967296, 4294967294] for this launch" + kRule);
  // A bound that is an element is known only on the device: a segment table's loop runs
  // (the launch cannot range it; IntegerWidths.h says what that leaves unchecked).
  CHECK(counts(", C: i32[N]", "for i in C[bx] .. C[bx + 1]", {buffer_arg(nullptr), int_arg(5)}, {4, 1, 1}).is_ok());
  CHECK(counts(", C: i32[4]", "for i in 0 .. C[0]", {buffer_arg(nullptr), int_arg(1)}).is_ok());
}

TEST_CASE("kernels without serial loops, and loops counted in 63 bits") {
  CHECK(counts("", "if N > 0", {int_arg(1)}).is_ok());
  CHECK(counts("", "for i in 0 .. 4294967297", {int_arg(1)}, {1, 1, 1}, 63).is_ok());
  CHECK(counts("", "for i in 0 .. 2305843009213693952", {int_arg(1)}, {1, 1, 1}, 63).is_ok());
  CHECK_FALSE(counts("", "for i in 0 .. 4611686018427387904", {int_arg(1)}, {1, 1, 1}, 63).is_ok());
  // Misuse: a counter the check cannot describe.
  ir::Kernel k = parse("kernel k(Y: i32[N]) grid(N) threads(1) {\n  parallel t in 1 {\n    store Y[0] = 1\n  }\n}\n");
  tg_launch_params p{};
  p.struct_size = sizeof p;
  CHECK(check_loop_counts(k, p, {1, 1, 1}, 64).code() == ErrorCode::InvalidArgument);
}

}  // namespace loop_counts_test
