// Warm-up for exact shapes (tegula_kernel_warm_up_shape): the variant a launch at the
// given shape-symbol values would run is compiled up front, on a device that specialises
// per shape (the exact-shape variant, with a tunable kernel's ranked binding) and on one
// that does not (the divisibility class's variant), so that launch compiles nothing and
// computes the right result; bad values and counts are refused.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace kernel_warm_up_shape_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

std::string specializing_manifest() { return std::string(TEGULA_TEST_PLUGINS_DIR) + "/reference_specializing.json"; }

}  // namespace

TEST_CASE("on a specialising device, the exact-shape variant compiles at warm-up, not at launch") {
  CapturedLog log;
  auto rt = open_runtime({specializing_manifest()}, &log);
  REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
  auto d = rt->find_device("reference_specializing");
  REQUIRE_MESSAGE(d.is_ok(), d.status().str());
  auto k = d->compile(tunable_scale_ir());
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  uint64_t before = rt->stats().plugin_compiles;
  REQUIRE(k->warm_up_shape({1000}).is_ok());
  CHECK(rt->stats().plugin_compiles == before + 1);
  CHECK(log.contains("compiled the variant for N=1000"));
  REQUIRE(k->warm_up_shape({1000}).is_ok());  // again: nothing
  CHECK(rt->stats().plugin_compiles == before + 1);
  CHECK(run_scale(*d, *k, 1000) == "");
  CHECK(rt->stats().plugin_compiles == before + 1);
  // A shape not warmed up still compiles at its launch.
  CHECK(run_scale(*d, *k, 7) == "");
  CHECK(rt->stats().plugin_compiles == before + 2);
}

TEST_CASE("elsewhere, the divisibility class's variant compiles at warm-up") {
  CapturedLog log;
  auto rt = open_runtime({reference_manifest()}, &log);
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto k = d->compile(axpb_ir());
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  uint64_t before = rt->stats().plugin_compiles;
  REQUIRE(k->warm_up_shape({1000}).is_ok());  // 1000 = 8 * 125: the N % 8 == 0 variant
  CHECK(rt->stats().plugin_compiles == before + 1);
  CHECK(log.contains("compiled the variant for N % 8 == 0"));
  std::vector<float> x(1000, 2.0f), poison(1000, -1.0f);
  auto X = d->alloc(4000), Y = d->alloc(4000);
  REQUIRE((X.is_ok() && Y.is_ok()));
  REQUIRE(X->write(x).is_ok());
  REQUIRE(Y->write(poison).is_ok());
  REQUIRE(k->launch({Arg::tensor(*X), Arg::tensor(*Y), Arg::number(3.0), Arg::number(0.5), Arg::integer(1000)}).is_ok());
  REQUIRE(d->synchronize().is_ok());
  CHECK(rt->stats().plugin_compiles == before + 1);
  auto y = Y->read<float>(1000);
  REQUIRE(y.is_ok());
  for (size_t i = 0; i < 1000; ++i) REQUIRE((*y)[i] == 6.5f);
  // A shape of the generic class (no power-of-two divisor) needs no variant at all.
  REQUIRE(k->warm_up_shape({999}).is_ok());
  CHECK(rt->stats().plugin_compiles == before + 1);
}

TEST_CASE("misuse: a wrong count, a negative value, no values") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto k = d->compile(axpb_ir());
  REQUIRE(k.is_ok());
  Status st = k->warm_up_shape({});
  CHECK(st.code() == ErrorCode::InvalidArgument);
  CHECK(st.message().find("has 1 shape symbols, given 0 values") != std::string::npos);
  st = k->warm_up_shape({4, 4});
  CHECK(st.code() == ErrorCode::InvalidArgument);
  st = k->warm_up_shape({-3});
  CHECK(st.code() == ErrorCode::InvalidArgument);
  CHECK(st.message().find("shape symbol N = -3 is negative") != std::string::npos);
  tegula_error* e = tegula_kernel_warm_up_shape(k->handle(), nullptr, 1);
  REQUIRE(e != nullptr);
  CHECK(std::string(tegula_error_message(e)).find("symbol_values is NULL") != std::string::npos);
  tegula_error_free(e);
  e = tegula_kernel_warm_up_shape(nullptr, nullptr, 0);
  REQUIRE(e != nullptr);
  tegula_error_free(e);
}

}  // namespace kernel_warm_up_shape_test
