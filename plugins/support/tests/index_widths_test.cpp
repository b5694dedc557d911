// check_index_widths refuses a launch in which an integer the kernel computes from what the
// launch fixes (element indices, tile offsets, if conditions, map values over block and
// element indices) could leave a narrower integer (i32, as Vulkan's): `Y[i * a * b + i]`
// with a * b = 2^32 would wrap back to Y[i] and write inside the tensor where the reference
// refuses the access. Values read on the device (an element, a tile's values) are not
// ranged, so a paged kernel's `Tbl[j] * B` still launches; loops are checked as
// check_loop_counts checks them.
#include "plugins/support/IntegerWidths.h"

#include "plugins/support/tests/LaunchCheckTestUtil.h"

namespace index_widths_test {

using namespace tegula;
using namespace tegula::plugin;
using namespace tegula::plugin::testing;

namespace {

/// Kernel `k(Y: f32[N], T: i32[N], a: i32, b: i32)` with `body` in a 4-thread parallel loop,
/// launched with a, b and N, on `grid` blocks, checked in 32 bits.
Status widths(const std::string& body, int64_t a, int64_t b, int64_t n = 64, std::array<uint32_t, 3> grid = {1, 1, 1},
              const std::string& head = "") {
  std::string text = "kernel k(Y: f32[N], T: i32[N], a: i32, b: i32) grid(" + std::to_string(grid[0]) + ") threads(4) {\n" + head +
                     "  parallel i in 4 {\n    " + body + "\n  }\n}\n";
  ir::Kernel k = parse(text.c_str());
  FakeDevice dev;
  std::vector<tg_launch_arg> args{buffer_arg(dev.add(1 << 12)), buffer_arg(dev.add(1 << 12)), int_arg(a), int_arg(b), int_arg(n)};
  tg_launch_params p{};
  p.struct_size = sizeof p;
  for (int d = 0; d < 3; ++d) p.grid[d] = grid[d];
  p.args = args.data();
  p.arg_count = args.size();
  return check_index_widths(k, p, grid, 32);
}

bool mentions(const Status& st, const std::string& what) { return st.message().find(what) != std::string::npos; }

}  // namespace

TEST_CASE("an element index that would wrap is refused with the expression and its range") {
  CHECK(widths("store Y[i * a + i] = 1.0", 8, 1).is_ok());
  Status st = widths("store Y[i * a * b + i] = 1.0", 65536, 65536);
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == ErrorCode::Unsupported);
  CHECK_MESSAGE(mentions(st, "'i * a * b' may be anything in [0, 12884901888] for this launch"), st.message());
  CHECK_MESSAGE(mentions(st, "computes indices in 32-bit integers"), st.message());
  CHECK_MESSAGE(mentions(st, "(in 'i * a * b + i')"), st.message());
  // Loads and if conditions too.
  CHECK_FALSE(widths("store Y[i] = Y[i * a * b]", 65536, 65536).is_ok());
  CHECK_FALSE(widths("if i * a * b < N {\n      store Y[i] = 1.0\n    }", 65536, 65536).is_ok());
  CHECK(widths("if i * a < N {\n      store Y[i] = 1.0\n    }", 65536, 65536).is_ok());
}

TEST_CASE("tile offsets and block indices are ranged over the grid") {
  std::string head = "  alloc S: shared f32[4]\n  copy Y[bx * a], S\n";
  CHECK(widths("store Y[i] = 1.0", 1000, 1, 64, {1000, 1, 1}, head).is_ok());
  Status st = widths("store Y[i] = 1.0", 3000000, 1, 64, {1000, 1, 1}, head);
  REQUIRE_FALSE(st.is_ok());
  CHECK_MESSAGE(mentions(st, "'bx * a' may be anything in [0, 2997000000]"), st.message());
}

TEST_CASE("element indices range over the destination's extent") {
  std::string head = "  alloc F: shared f32[8, 16]\n  map F = select(bx * a + idx(0) >= idx(1), 1.0, 0.0)\n";
  // bx * a + 7 stays inside i32 at the largest block; one more block and it would not.
  CHECK(widths("store Y[i] = 1.0", 2147483640 / 4, 1, 64, {4, 1, 1}, head).is_ok());
  Status st = widths("store Y[i] = 1.0", 2147483647 / 3, 1, 64, {4, 1, 1}, head);
  REQUIRE_FALSE(st.is_ok());
  CHECK_MESSAGE(mentions(st, "'bx * a + idx(0)' may be anything in [0, 2147483653]"), st.message());
}

TEST_CASE("values read on the device are not ranged, loops still are") {
  // A paged kernel's index from a table: the launch cannot know T's values.
  CHECK(widths("store Y[T[i] * a] = 1.0", 65536, 1).is_ok());
  CHECK(widths("store Y[i] = Y[T[i] * a * b]", 65536, 65536).is_ok());
  // Loops: as check_loop_counts.
  Status st = widths("for j in 0 .. a * b {\n      store Y[0] = 1.0\n    }", 65536, 65536);
  REQUIRE_FALSE(st.is_ok());
  CHECK(mentions(st, "counts loops in 32-bit integers"));
  // Misuse.
  ir::Kernel k = parse("kernel k(Y: i32[N]) grid(N) threads(1) {\n  parallel t in 1 {\n    store Y[0] = 1\n  }\n}\n");
  tg_launch_params p{};
  p.struct_size = sizeof p;
  CHECK(check_index_widths(k, p, {1, 1, 1}, 64).code() == ErrorCode::InvalidArgument);
}

}  // namespace index_widths_test
