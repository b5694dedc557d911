// validate_launch keeps what a kernel was lowered assuming: a shape symbol that breaks
// lower.assume and a tensor whose address breaks lower.tensor_align (or a backend's own
// per-tensor alignment) are refused, naming them; lowered_launch_signature reads both
// attributes and refuses malformed ones; the signature without the plan (the runtime's)
// assumes nothing.
#include "plugins/support/tests/LaunchCheckTestUtil.h"

#include "ir/lower/Lowered.h"

namespace launch_check_assumptions_test {

using namespace tegula;
using namespace tegula::plugin;
using namespace tegula::plugin::testing;

namespace {

/// kAdd1 as lowering would leave it, assuming N is a multiple of 16 and tensors 16-byte aligned.
ir::Kernel lowered_assuming() {
  ir::Kernel k = parse(kAdd1);
  ir::set_attr(k.attrs, "lower.assume",
               ir::AttrValue::of_list({ir::AttrValue::of_list({ir::AttrValue::of_ident("N"), ir::AttrValue::of_int(16)})}));
  ir::set_attr(k.attrs, "lower.tensor_align", ir::AttrValue::of_int(16));
  return k;
}

std::vector<tg_launch_arg> args_for(tg_buffer* x, tg_buffer* y, int64_t n, uint64_t offset = 0) {
  return {buffer_arg(x, offset), buffer_arg(y), float_arg(1), int_arg(n)};
}

std::array<uint32_t, 3> grid_for(int64_t n) { return {uint32_t((n + 15) / 16), 1, 1}; }

}  // namespace

TEST_CASE("a shape symbol that breaks lower.assume is refused, naming it") {
  ir::Kernel k = lowered_assuming();
  auto sig = lowered_launch_signature(k);
  REQUIRE_MESSAGE(sig.is_ok(), sig.status().str());
  CHECK(sig->params[3].divisor == 16);
  FakeDevice dev;
  tg_buffer* x = dev.add(256);
  for (int64_t n : {0, 16, 48}) {
    CAPTURE(n);
    auto r = validate(*sig, dev, args_for(x, x, n), grid_for(n));
    CHECK_MESSAGE(r.is_ok(), r.status().str());
  }
  check_refused(validate(*sig, dev, args_for(x, x, 17), grid_for(17)), ErrorCode::InvalidArgument,
                "argument 3 (N): kernel 'add1' was lowered assuming shape symbol 'N' is a multiple of 16, it is 17");
  // The runtime's signature, from the same kernel, assumes nothing: it picks the variant.
  CHECK(validate(launch_signature(k), dev, args_for(x, x, 17), grid_for(17)).is_ok());
}

TEST_CASE("a tensor whose address breaks the alignment is refused, naming it") {
  ir::Kernel k = lowered_assuming();
  auto sig = lowered_launch_signature(k);
  REQUIRE(sig.is_ok());
  CHECK(sig->params[0].align == 16);
  CHECK(sig->params[2].align == 1);
  FakeDevice dev;
  tg_buffer* x = dev.add(256, 4096);
  CHECK(validate(*sig, dev, args_for(x, x, 16, 32), grid_for(16)).is_ok());
  check_refused(validate(*sig, dev, args_for(x, x, 16, 8), grid_for(16)), ErrorCode::InvalidArgument,
                "argument 0 (X): kernel 'add1' was lowered for tensor 'X' aligned to 16 bytes; it starts 8 bytes past that "
                "(offset 8)");
}

TEST_CASE("the address counts, not the offset alone") {
  ir::Kernel k = lowered_assuming();
  auto sig = lowered_launch_signature(k);
  REQUIRE(sig.is_ok());
  FakeDevice dev;
  tg_buffer* x = dev.add(256, 4096);
  tg_buffer* odd = dev.add(256, 4100);  // starts 4 bytes past a multiple of 16
  CHECK(validate(*sig, dev, {buffer_arg(x), buffer_arg(odd, 12), float_arg(1), int_arg(16)}, grid_for(16)).is_ok());
  check_refused(validate(*sig, dev, {buffer_arg(x), buffer_arg(odd, 16), float_arg(1), int_arg(16)}, grid_for(16)),
                ErrorCode::InvalidArgument,
                "argument 1 (Y): kernel 'add1' was lowered for tensor 'Y' aligned to 16 bytes; it starts 4 bytes past that "
                "(offset 16)");
}

TEST_CASE("malformed assumptions do not make a signature") {
  ir::Kernel k = parse(kAdd1);
  ir::set_attr(k.attrs, "lower.tensor_align", ir::AttrValue::of_int(12));
  auto sig = lowered_launch_signature(k);
  REQUIRE_FALSE(sig.is_ok());
  CHECK_MESSAGE(sig.status().message().find("lower.tensor_align") != std::string::npos, sig.status().message());
  ir::Kernel k2 = parse(kAdd1);
  ir::set_attr(k2.attrs, "lower.assume",
               ir::AttrValue::of_list({ir::AttrValue::of_list({ir::AttrValue::of_ident("N"), ir::AttrValue::of_int(3)})}));
  auto sig2 = lowered_launch_signature(k2);
  REQUIRE_FALSE(sig2.is_ok());
  CHECK_MESSAGE(sig2.status().message().find("lower.assume") != std::string::npos, sig2.status().message());
}

}  // namespace launch_check_assumptions_test
