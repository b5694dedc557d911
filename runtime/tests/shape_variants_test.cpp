// On a device whose description has shape_specialization, each launch runs a variant
// compiled for its exact shapes (no shape symbols left: the plugin gets the parameters
// only), right for every shape, tunable kernels with their class's binding; past 16 shapes a
// kernel falls back to its symbolic variants. Devices without the feature never specialise.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

using namespace tegula;
using namespace tegula::testing;

namespace {

std::string specializing_manifest() { return std::string(TEGULA_TEST_PLUGINS_DIR) + "/reference_specializing.json"; }

}  // namespace

TEST_CASE("each launch runs a variant compiled for its shapes, right at each") {
  CapturedLog log;
  auto rt = open_runtime({specializing_manifest()}, &log);
  REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
  auto d = rt->find_device("reference_specializing");
  REQUIRE_MESSAGE(d.is_ok(), d.status().str());
  auto k = d->compile(tunable_scale_ir());
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  for (int64_t n : {1000, 7, 1, 1000, 257}) {
    CAPTURE(n);
    CHECK(run_scale(*d, *k, n) == "");
    auto text = k->describe();
    REQUIRE(text.is_ok());
    // The variant that ran has the launch's N in its signature, not the symbol.
    CHECK(text->find("X: f32[" + std::to_string(n) + "]") != std::string::npos);
    auto t = k->tunables();
    REQUIRE(t.is_ok());
    CHECK(t->second == "ranked");
  }
  CHECK(log.contains("the variant for N=1000"));
  CHECK(log.contains("the variant for N=257"));
}

TEST_CASE("past 16 shapes a kernel runs its symbolic variants") {
  auto rt = open_runtime({specializing_manifest()});
  auto d = rt->find_device("reference_specializing");
  REQUIRE(d.is_ok());
  auto k = d->compile(axpb_ir());
  REQUIRE(k.is_ok());
  for (int64_t n = 1; n <= 18; ++n) {
    CAPTURE(n);
    std::vector<float> x(size_t(n), 1.0f), y(size_t(n), -7.0f);
    auto X = d->alloc(uint64_t(n) * 4), Y = d->alloc(uint64_t(n) * 4);
    REQUIRE((X.is_ok() && Y.is_ok()));
    REQUIRE(X->write(x).is_ok());
    REQUIRE(Y->write(y).is_ok());
    REQUIRE(k->launch({Arg::tensor(*X), Arg::tensor(*Y), Arg::number(3.0), Arg::number(0.5), Arg::integer(n)}).is_ok());
    REQUIRE(d->synchronize().is_ok());
    auto out = Y->read<float>(size_t(n));
    REQUIRE(out.is_ok());
    for (float v : *out) REQUIRE(v == 3.5f);
    auto text = k->describe();
    REQUIRE(text.is_ok());
    bool specialized = text->find("X: f32[" + std::to_string(n) + "]") != std::string::npos;
    CHECK(specialized == (n <= 16));
  }
}

TEST_CASE("a device without the feature runs symbolic variants") {
  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto k = d->compile(tunable_scale_ir());
  REQUIRE(k.is_ok());
  CHECK(run_scale(*d, *k, 300) == "");
  auto text = k->describe();
  REQUIRE(text.is_ok());
  CHECK(text->find("X: f32[N]") != std::string::npos);
}
