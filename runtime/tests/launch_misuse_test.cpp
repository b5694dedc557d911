// Misuse of launches: wrong argument count or kinds, buffers too small or on another device,
// negative symbols. Each is refused before the plugin sees it, with a message naming the
// argument.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace launch_misuse_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

struct Fixture {
  Result<Runtime> rt = open_runtime({reference_manifest(), test_manifest("abi_newer")});
  Device d = rt->find_device("reference").value();
  Kernel k = d.compile(axpb_ir()).value();
  Buffer x = d.alloc(400).value();
  Buffer y = d.alloc(400).value();
};

}  // namespace

TEST_CASE("argument count") {
  Fixture f;
  Status st = f.k.launch({Arg::tensor(f.x), Arg::tensor(f.y)});
  CHECK(st.code() == ErrorCode::InvalidArgument);
  CHECK(st.message() ==
        "kernel 'axpb' takes 5 arguments (X: tensor, Y: tensor, a: float, b: float, N: int), given 2");
}

TEST_CASE("argument kinds") {
  Fixture f;
  Status st = f.k.launch({Arg::integer(1), Arg::tensor(f.y), Arg::number(1), Arg::number(1), Arg::integer(100)});
  CHECK(st.message() == "argument 0 (X) must be a tensor, given an integer");
  st = f.k.launch({Arg::tensor(f.x), Arg::tensor(f.y), Arg::number(1), Arg::number(1), Arg::number(100)});
  CHECK(st.message() == "argument 4 (N) must be an integer, given a float");
  // An integer for a float scalar is fine.
  CHECK(f.k.launch({Arg::tensor(f.x), Arg::tensor(f.y), Arg::integer(1), Arg::integer(1), Arg::integer(100)}).is_ok());
}

TEST_CASE("buffers too small for their tensor, at their offset") {
  Fixture f;
  Status st = f.k.launch({Arg::tensor(f.x), Arg::tensor(f.y), Arg::number(1), Arg::number(1), Arg::integer(101)});
  CHECK(st.code() == ErrorCode::OutOfRange);
  CHECK(st.message() == "argument 0 (X): the tensor needs 404 bytes, the buffer has 400 after offset 0");
  st = f.k.launch({Arg::tensor(f.x), Arg::tensor(f.y, 8), Arg::number(1), Arg::number(1), Arg::integer(100)});
  CHECK(st.message() == "argument 1 (Y): the tensor needs 400 bytes, the buffer has 392 after offset 8");
  st = f.k.launch({Arg::tensor(f.x, 401), Arg::tensor(f.y), Arg::number(1), Arg::number(1), Arg::integer(1)});
  CHECK(st.message() == "argument 0 (X): offset 401 is past the end of a 400-byte buffer");
}

TEST_CASE("a buffer on another device") {
  Fixture f;
  Buffer elsewhere = f.rt->find_device("abi_newer")->alloc(400).value();
  Status st = f.k.launch({Arg::tensor(elsewhere), Arg::tensor(f.y), Arg::number(1), Arg::number(1), Arg::integer(100)});
  CHECK(st.message() == "argument 0 (X): the buffer is on abi_newer:0, the kernel on reference:0");
}

TEST_CASE("negative symbols, NULL buffers, and an empty grid") {
  Fixture f;
  Status st = f.k.launch({Arg::tensor(f.x), Arg::tensor(f.y), Arg::number(1), Arg::number(1), Arg::integer(-1)});
  CHECK(st.message() == "shape symbol N is negative (-1)");
  tegula_arg args[5] = {tegula_arg_tensor(nullptr, 0), tegula_arg_tensor(f.y.handle(), 0), tegula_arg_float(1),
                        tegula_arg_float(1), tegula_arg_int(1)};
  tegula_error* e = tegula_launch(f.k.handle(), args, 5);
  CHECK(std::string(tegula_error_message(e)) == "argument 0 (X): the buffer is NULL");
  tegula_error_free(e);
  // N = 0: zero blocks, nothing to do, success.
  CHECK(f.k.launch({Arg::tensor(f.x), Arg::tensor(f.y), Arg::number(1), Arg::number(1), Arg::integer(0)}).is_ok());
}

TEST_CASE("a grid whose block count overflows int64 is refused, with the message every device gives") {
  // 4 x 2^31 x 2^31 blocks is 2^64: the product wrapped to 0 and the reference device ran
  // no block and reported success.
  Fixture f;
  auto k = f.d.compile("kernel wide(X: f32[4], n: i32) grid(4, n * 65536, n * 65536) threads(1) {\n"
                       "  parallel i in 1 {\n"
                       "    store X[0] = 1.0\n"
                       "  }\n"
                       "}\n");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  Status st = k->launch({Arg::tensor(f.x), Arg::integer(32768)});
  CHECK(st.code() == ErrorCode::InvalidArgument);
  CHECK(st.message() == "a grid of 4 x 2147483648 x 2147483648 blocks is more than the 281474976710656 one launch may run");
}

}  // namespace launch_misuse_test
