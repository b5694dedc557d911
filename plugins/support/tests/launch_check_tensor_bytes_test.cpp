// validate_launch refuses a tensor whose buffer, past its offset, is smaller than the shape
// the launch's symbols give (OutOfRange, with both sizes and the offset), and a shape past
// 2^62 bytes; a buffer that fits exactly, or a tensor of no elements, is accepted.
#include "plugins/support/tests/LaunchCheckTestUtil.h"

namespace launch_check_tensor_bytes_test {

using namespace tegula;
using namespace tegula::plugin;
using namespace tegula::plugin::testing;

namespace {

const char* kKernel = R"(
kernel scale(X: bf16[M, 8], Y: f32[M, K]) grid(1) threads(32) {
  alloc t: fragment f32[1]
  fill t, 0.0
}
)";

}  // namespace

TEST_CASE("buffers too small for the shape are refused") {
  ir::Kernel k = parse(kKernel);
  LaunchSignature sig = launch_signature(k);
  FakeDevice dev;
  // M = 3, K = 5: X needs 3 * 8 * 2 = 48 bytes, Y 3 * 5 * 4 = 60.
  tg_buffer* x = dev.add(48);
  tg_buffer* y = dev.add(64);
  auto r = validate(sig, dev, {buffer_arg(x), buffer_arg(y, 4), int_arg(3), int_arg(5)}, {1, 1, 1});
  CHECK_MESSAGE(r.is_ok(), r.status().str());
  check_refused(validate(sig, dev, {buffer_arg(x), buffer_arg(y, 8), int_arg(3), int_arg(5)}, {1, 1, 1}),
                ErrorCode::OutOfRange, "argument 1 (Y): the tensor needs 60 bytes, the buffer has 56 after offset 8");
  check_refused(validate(sig, dev, {buffer_arg(x, 2), buffer_arg(y), int_arg(3), int_arg(5)}, {1, 1, 1}),
                ErrorCode::OutOfRange, "argument 0 (X): the tensor needs 48 bytes, the buffer has 46 after offset 2");
  check_refused(validate(sig, dev, {buffer_arg(x), buffer_arg(y), int_arg(4), int_arg(1)}, {1, 1, 1}),
                ErrorCode::OutOfRange, "argument 0 (X): the tensor needs 64 bytes, the buffer has 48 after offset 0");
}

TEST_CASE("a tensor of no elements needs no bytes, an offset at the very end is fine") {
  ir::Kernel k = parse(kKernel);
  LaunchSignature sig = launch_signature(k);
  FakeDevice dev;
  tg_buffer* empty = dev.add(0);
  tg_buffer* y = dev.add(16);
  auto r = validate(sig, dev, {buffer_arg(empty), buffer_arg(y, 16), int_arg(0), int_arg(7)}, {1, 1, 1});
  CHECK_MESSAGE(r.is_ok(), r.status().str());
}

TEST_CASE("a shape past 2^62 bytes is refused, not wrapped") {
  ir::Kernel k = parse(R"(
kernel big(Y: f32[M, K, L]) grid(1) threads(32) {
  alloc t: fragment f32[1]
  fill t, 0.0
}
)");
  LaunchSignature sig = launch_signature(k);
  FakeDevice dev;
  tg_buffer* b = dev.add(64);
  // 2^31 * 2^31 * 2^2 * 4 bytes is 2^66: 0 in 64 bits without the check.
  int64_t big = int64_t(1) << 31;
  check_refused(validate(sig, dev, {buffer_arg(b), int_arg(big), int_arg(big), int_arg(4)}, {1, 1, 1}),
                ErrorCode::InvalidArgument, "argument 0 (Y): the tensor is more than 2^62 bytes");
}

TEST_CASE("checked_tensor_bytes is the size validate_launch compared") {
  ir::Kernel k = parse(kKernel);
  LaunchSignature sig = launch_signature(k);
  std::vector<tg_launch_arg> args = {buffer_arg(nullptr), buffer_arg(nullptr), int_arg(3), int_arg(5)};
  tg_launch_params p{};
  p.struct_size = sizeof p;
  p.args = args.data();
  p.arg_count = args.size();
  CHECK(checked_tensor_bytes(sig.params[0], p) == 48);
  CHECK(checked_tensor_bytes(sig.params[1], p) == 60);
}

}  // namespace launch_check_tensor_bytes_test
