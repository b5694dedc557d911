// On a device whose description has shape_specialization, each launch runs a variant
// compiled for its exact shapes (no shape symbols left: the plugin gets the parameters
// only), right for every shape, tunable kernels with their class's binding; past 16 shapes a
// kernel falls back to its symbolic variants, and a shape that cannot be specialised (K = 0:
// a constant dimension may not be zero) runs them without stopping other shapes from
// specialising. Devices without the feature never specialise.
#include <doctest/doctest.h>

#include "core/Files.h"
#include "runtime/tests/TestSupport.h"

namespace shape_variants_test {

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

TEST_CASE("a shape that cannot be specialised runs symbolic, and later shapes still specialise") {
  CapturedLog log;
  auto rt = open_runtime({specializing_manifest()}, &log);
  auto d = rt->find_device("reference_specializing");
  REQUIRE(d.is_ok());
  auto text = read_file(example("gemm/gemm_bf16.tile"));
  REQUIRE(text.is_ok());
  auto k = d->compile(*text);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  const int64_t m = 8, n = 8;
  for (int64_t kk : {0, 16, 0}) {
    CAPTURE(kk);
    // bf16 ones: C = K exactly; C starts as NaN (0xffff).
    std::vector<uint16_t> a(size_t(m * std::max<int64_t>(kk, 1)), 0x3f80), b(size_t(std::max<int64_t>(kk, 1) * n), 0x3f80),
        c(size_t(m * n), 0xffff);
    auto A = d->alloc(a.size() * 2), B = d->alloc(b.size() * 2), C = d->alloc(c.size() * 2);
    REQUIRE((A.is_ok() && B.is_ok() && C.is_ok()));
    REQUIRE(A->write(a).is_ok());
    REQUIRE(B->write(b).is_ok());
    REQUIRE(C->write(c).is_ok());
    Status st = k->launch({Arg::tensor(*A), Arg::tensor(*B), Arg::tensor(*C), Arg::integer(m), Arg::integer(kk), Arg::integer(n)});
    REQUIRE_MESSAGE(st.is_ok(), st.str());
    REQUIRE(d->synchronize().is_ok());
    REQUIRE(C->read(c.data(), c.size() * 2).is_ok());
    for (uint16_t v : c) REQUIRE(v == (kk == 0 ? 0x0000 : 0x4180));  // bf16 0 and 16
    auto described = k->describe();
    REQUIRE(described.is_ok());
    CHECK((described->find("A: bf16[8, 16]") != std::string::npos) == (kk == 16));
  }
  CHECK(log.contains("no variant for M=8 K=0 N=8"));
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

}  // namespace shape_variants_test
