// Launches specialise the kernel on what they guarantee: a variant per distinct set of
// power-of-two divisors, compiled once on first use. The executable compiled up front
// assumes 16-byte-aligned tensors and nothing about shapes; a launch with a tensor that
// starts unaligned gets a variant without that assumption (and without divisors).
#include <doctest/doctest.h>

#include <cstdint>

#include "core/Files.h"
#include "runtime/tests/TestSupport.h"

namespace launch_specialization_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("variants are compiled once per divisibility key, and all compute the same") {
  auto rt = open_runtime({reference_manifest()}, nullptr, "off");
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto text = read_file(example("reduce/row_sum.tile"));
  REQUIRE(text.is_ok());
  auto k = d->compile(*text);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(rt->stats().plugin_compiles == 1);
  auto lowered = k->describe();  // the reference executable is the lowered kernel
  REQUIRE(lowered.is_ok());
  CHECK(lowered->find("lower.tensor_align=16") != std::string::npos);  // the up-front one assumes alignment
  auto run = [&](int64_t m, int64_t n, uint64_t offset) {
    auto x = d->alloc(uint64_t(m * n) * 2 + 64);
    auto y = d->alloc(uint64_t(m) * 4);
    REQUIRE(x.is_ok());
    REQUIRE(y.is_ok());
    std::vector<uint16_t> ones(size_t(m * n) + 32, 0x3c00);  // f16 1.0
    REQUIRE(x->write(ones).is_ok());
    REQUIRE(k->launch({Arg::tensor(*x, offset), Arg::tensor(*y), Arg::integer(m), Arg::integer(n)}).is_ok());
    auto out = y->read<float>(size_t(m));
    REQUIRE(out.is_ok());
    for (float v : *out) CHECK(v == float(n));
  };
  run(3, 7, 0);    // nothing divides, tensors aligned: the executable compiled up front
  CHECK(rt->stats().plugin_compiles == 1);
  run(4, 64, 0);   // M % 4, N % 16: a new variant
  CHECK(rt->stats().plugin_compiles == 2);
  run(4, 1024, 0); // the same key
  CHECK(rt->stats().plugin_compiles == 2);
  run(8, 64, 0);   // M % 8: another key
  CHECK(rt->stats().plugin_compiles == 3);
  run(8, 64, 2);   // a tensor 2 bytes into its buffer: the unaligned variant
  CHECK(rt->stats().plugin_compiles == 4);
  run(3, 7, 2);    // unaligned again (divisors are ignored without alignment): the same variant
  CHECK(rt->stats().plugin_compiles == 4);
}

}  // namespace launch_specialization_test
