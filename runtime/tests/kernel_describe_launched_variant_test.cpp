// tegula_kernel_describe shows the executable the most recent launch ran: launches
// specialise the kernel (Launch.cpp), so a description of the executable compiled up front
// would show code that did not run. The reference executable is the lowered kernel, whose
// lower.tensor_align=16 tells the generic variant from the unaligned one.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "core/Files.h"
#include "runtime/tests/TestSupport.h"

namespace kernel_describe_launched_variant_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("describe follows the variant each launch selected") {
  auto rt = open_runtime({reference_manifest()}, nullptr, "off");
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto text = read_file(example("reduce/row_sum.tile"));
  REQUIRE(text.is_ok());
  auto k = d->compile(*text);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto up_front = k->describe();  // no launch yet: the executable compiled up front
  REQUIRE(up_front.is_ok());
  CHECK(up_front->find("lower.tensor_align=16") != std::string::npos);

  const int64_t m = 3, n = 7;  // nothing divides: only alignment picks the variant
  auto x = d->alloc(uint64_t(m * n) * 2 + 64);
  auto y = d->alloc(uint64_t(m) * 4);
  REQUIRE(x.is_ok());
  REQUIRE(y.is_ok());
  auto launch = [&](uint64_t offset) {
    REQUIRE(k->launch({Arg::tensor(*x, offset), Arg::tensor(*y), Arg::integer(m), Arg::integer(n)}).is_ok());
    REQUIRE(d->synchronize().is_ok());
  };

  launch(2);  // X starts 2 bytes into its buffer: the unaligned variant runs
  CHECK(rt->stats().plugin_compiles == 2);
  auto unaligned = k->describe();
  REQUIRE(unaligned.is_ok());
  CHECK(unaligned->find("lower.tensor_align=16") == std::string::npos);
  CHECK(*unaligned != *up_front);

  launch(0);  // aligned again: the executable compiled up front runs, and is described
  auto again = k->describe();
  REQUIRE(again.is_ok());
  CHECK(*again == *up_front);
}

}  // namespace kernel_describe_launched_variant_test
