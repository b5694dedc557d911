// validate_launch refuses arguments that do not fit the kernel's launch signature, naming the
// argument: a wrong count, an unknown kind, a number for a tensor, a buffer for a scalar, a
// float or a negative value for a shape symbol, a NULL buffer or one of another device, an
// offset past the end of its buffer. The launch it accepts needs none of them.
#include "plugins/support/tests/LaunchCheckTestUtil.h"

#include "plugins/support/PluginErrors.h"

namespace launch_check_arguments_test {

using namespace tegula;
using namespace tegula::plugin;
using namespace tegula::plugin::testing;

TEST_CASE("the signature lists parameters, then shape symbols") {
  ir::Kernel k = parse(kAdd1);
  LaunchSignature sig = launch_signature(k);
  REQUIRE(sig.params.size() == 4);
  CHECK(sig.kernel == "add1");
  CHECK(sig.params[0].kind == LaunchParam::Kind::Tensor);
  CHECK(sig.params[0].elem_bytes == 4);
  REQUIRE(sig.params[0].dims.size() == 1);
  CHECK(sig.params[0].dims[0].arg == 3);
  CHECK(sig.params[2].kind == LaunchParam::Kind::Scalar);
  CHECK(sig.params[3].kind == LaunchParam::Kind::Symbol);
  CHECK(sig.params[3].name == "N");
}

TEST_CASE("arguments that do not fit the signature are refused, naming the argument") {
  ir::Kernel k = parse(kAdd1);
  LaunchSignature sig = launch_signature(k);
  FakeDevice dev;
  tg_buffer* x = dev.add(64);
  tg_buffer* y = dev.add(64);
  auto ok = [&] { return std::vector<tg_launch_arg>{buffer_arg(x), buffer_arg(y), float_arg(1.5), int_arg(16)}; };
  auto r = validate(sig, dev, ok(), {1, 1, 1});
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());

  std::vector<tg_launch_arg> args = ok();
  args.pop_back();
  check_refused(validate(sig, dev, args, {1, 1, 1}), ErrorCode::InvalidArgument, "kernel 'add1' takes 4 arguments, given 3");

  args = ok();
  args[1].kind = 7;
  check_refused(validate(sig, dev, args, {1, 1, 1}), ErrorCode::InvalidArgument, "argument 1 (Y) has unknown kind 7");

  args = ok();
  args[0] = int_arg(3);
  check_refused(validate(sig, dev, args, {1, 1, 1}), ErrorCode::InvalidArgument,
                "argument 0 (X) must be a buffer, given an integer");

  args = ok();
  args[2] = buffer_arg(x);
  check_refused(validate(sig, dev, args, {1, 1, 1}), ErrorCode::InvalidArgument,
                "argument 2 (s) must be a number, given a buffer");
  args[2] = int_arg(2);  // an integer for a float scalar is a number too
  CHECK(validate(sig, dev, args, {1, 1, 1}).is_ok());

  args = ok();
  args[3] = float_arg(16);
  check_refused(validate(sig, dev, args, {1, 1, 1}), ErrorCode::InvalidArgument,
                "argument 3 (N): a shape symbol must be an integer, given a float");
  args[3] = int_arg(-1);
  check_refused(validate(sig, dev, args, {0, 1, 1}), ErrorCode::InvalidArgument, "shape symbol N is negative (-1)");

  args = ok();
  args[1].buffer = nullptr;
  check_refused(validate(sig, dev, args, {1, 1, 1}), ErrorCode::InvalidArgument,
                "argument 1 (Y): not a buffer of this device");
  args[1].buffer = reinterpret_cast<tg_buffer*>(uintptr_t(4096 * 64));
  check_refused(validate(sig, dev, args, {1, 1, 1}), ErrorCode::InvalidArgument,
                "argument 1 (Y): not a buffer of this device");

  args = ok();
  args[0].offset = 65;
  check_refused(validate(sig, dev, args, {1, 1, 1}), ErrorCode::OutOfRange,
                "argument 0 (X): offset 65 is past the end of a 64-byte buffer");
}

TEST_CASE("a plugin that knows no names gets messages without them") {
  ir::Kernel k = parse(kAdd1);
  LaunchSignature sig = launch_signature(k);
  for (LaunchParam& p : sig.params) p.name.clear();
  FakeDevice dev;
  tg_buffer* x = dev.add(64);
  check_refused(validate(sig, dev, {buffer_arg(x), int_arg(0), float_arg(1), int_arg(16)}, {1, 1, 1}),
                ErrorCode::InvalidArgument, "argument 1 must be a buffer, given an integer");
  check_refused(validate(sig, dev, {buffer_arg(x), buffer_arg(x), float_arg(1), int_arg(-2)}, {1, 1, 1}),
                ErrorCode::InvalidArgument, "argument 3: the shape symbol is negative (-2)");
}

TEST_CASE("NULL arguments with a count are refused") {
  ir::Kernel k = parse(kAdd1);
  LaunchSignature sig = launch_signature(k);
  FakeDevice dev;
  tg_launch_params p{};
  p.struct_size = sizeof p;
  p.arg_count = 4;
  auto r = validate_launch(sig, p, FakeDevice::lookup, &dev);
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().message() == "the arguments are NULL");
}

TEST_CASE("launch_error names the plugin and keeps the code") {
  tg_error* e = launch_error("cpu", error(ErrorCode::OutOfRange, "argument 0 (X): too small"));
  CHECK(std::string(error_message(e)) == "cpu: launch: argument 0 (X): too small");
  CHECK(error_code(e) == TG_ERR_INVALID_ARGUMENT);
  error_destroy(e);
}

}  // namespace launch_check_arguments_test
