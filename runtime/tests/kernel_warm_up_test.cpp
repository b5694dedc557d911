// Warm-up: the variants launches would compile at first use, compiled up front, so a
// serving launch compiles nothing; the compile at first use is logged at debug level.
#include <doctest/doctest.h>

#include "core/Files.h"
#include "runtime/tests/TestSupport.h"

namespace kernel_warm_up_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("after warm_up, launches of the warmed divisors compile nothing") {
  CapturedLog log;
  auto rt = open_runtime({reference_manifest()}, &log);
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  auto text = read_file(example("reduce/row_sum.tile"));
  REQUIRE(text.is_ok());
  auto k = d->compile(*text);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(rt->stats().plugin_compiles == 1);
  // M: divisors 1 and 8; N: 16. Two variants, one of them (M % 1, N % 16) new, (M % 8, N % 16) new.
  REQUIRE(k->warm_up({0x1 | 0x8, 0x10}).is_ok());
  CHECK(rt->stats().plugin_compiles == 3);
  CHECK(log.contains("kernel row_sum: compiled the variant for M % 8 == 0, N % 16 == 0 at its first use"));
  auto x = d->alloc(8 * 64 * 2);
  auto y = d->alloc(8 * 4);
  REQUIRE(x.is_ok());
  REQUIRE(y.is_ok());
  REQUIRE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::integer(8), Arg::integer(64)}).is_ok());
  REQUIRE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::integer(3), Arg::integer(32)}).is_ok());
  CHECK(rt->stats().plugin_compiles == 3);
  REQUIRE(k->warm_up().is_ok());  // divisor 16 for each: M % 16, N % 16 is new
  CHECK(rt->stats().plugin_compiles == 4);
  REQUIRE(k->warm_up().is_ok());  // again: nothing
  CHECK(rt->stats().plugin_compiles == 4);
}

TEST_CASE("misuse: the wrong number of masks, bits above 16") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto k = rt->find_device("reference")->compile(axpb_ir());
  REQUIRE(k.is_ok());
  Status st = k->warm_up({1, 2});
  CHECK(st.message() == "tegula_kernel_warm_up: kernel 'axpb' has 1 shape symbols, given 2 divisor masks");
  st = k->warm_up({0x20});
  CHECK(st.message().find("has bits above 16") != std::string::npos);
  CHECK(status_from(tegula_kernel_warm_up(nullptr, nullptr, 0)).code() == ErrorCode::InvalidArgument);
  CHECK(k->warm_up({0x1}).is_ok());  // divisor 1 only: the executable compiled up front
}

}  // namespace kernel_warm_up_test
