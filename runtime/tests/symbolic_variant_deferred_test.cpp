// On a device that specialises per shape, compiling a kernel with shape symbols lowers it
// (lowering's refusals still come at compile) but leaves the plugin compile of its symbolic
// variant until a launch needs it: launches of up to 16 shapes compile one variant each and
// never the symbolic one; the 17th shape, or describe before any launch, compiles it once,
// and it computes the right result. A kernel without shape symbols compiles at once.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace symbolic_variant_deferred_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

std::string specializing_manifest() { return std::string(TEGULA_TEST_PLUGINS_DIR) + "/reference_specializing.json"; }

/// Y = X * 3 + 0.5 on n elements through axpb_ir; "" or what went wrong.
std::string run_axpb(Device& d, Kernel& k, int64_t n) {
  std::vector<float> x(static_cast<size_t>(n)), poison(static_cast<size_t>(n), -1.0f);
  for (int64_t i = 0; i < n; ++i) x[size_t(i)] = float(i);
  auto X = d.alloc(uint64_t(n) * 4), Y = d.alloc(uint64_t(n) * 4);
  if (!X.is_ok() || !Y.is_ok() || !X->write(x).is_ok() || !Y->write(poison).is_ok()) return "setup failed";
  Status st = k.launch({Arg::tensor(*X), Arg::tensor(*Y), Arg::number(3.0), Arg::number(0.5), Arg::integer(n)});
  if (!st.is_ok()) return st.str();
  if (!d.synchronize().is_ok()) return "synchronize failed";
  auto y = Y->read<float>(size_t(n));
  if (!y.is_ok()) return "read failed";
  for (int64_t i = 0; i < n; ++i)
    if ((*y)[size_t(i)] != float(i) * 3.0f + 0.5f) return "Y[" + std::to_string(i) + "] wrong at N = " + std::to_string(n);
  return "";
}

}  // namespace

TEST_CASE("the symbolic variant compiles only when a launch needs it") {
  CapturedLog log;
  auto rt = open_runtime({specializing_manifest()}, &log);
  REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
  auto d = rt->find_device("reference_specializing");
  REQUIRE_MESSAGE(d.is_ok(), d.status().str());
  auto k = d->compile(axpb_ir());
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(rt->stats().plugin_compiles == 0);
  for (int64_t n = 1; n <= 16; ++n) {
    CAPTURE(n);
    CHECK(run_axpb(*d, *k, n) == "");
    CHECK(rt->stats().plugin_compiles == uint64_t(n));
  }
  CHECK_FALSE(log.contains("symbolic variant"));
  // Past 16 shapes: the symbolic variant (N = 17 has no power-of-two divisor), once.
  CHECK(run_axpb(*d, *k, 17) == "");
  CHECK(rt->stats().plugin_compiles == 17);
  CHECK(log.contains("kernel axpb: compiled the symbolic variant at its first use"));
  CHECK(run_axpb(*d, *k, 19) == "");
  CHECK(rt->stats().plugin_compiles == 17);
}

TEST_CASE("describe before any launch compiles the symbolic variant") {
  auto rt = open_runtime({specializing_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference_specializing");
  REQUIRE(d.is_ok());
  auto k = d->compile(axpb_ir());
  REQUIRE(k.is_ok());
  CHECK(rt->stats().plugin_compiles == 0);
  auto text = k->describe();
  REQUIRE_MESSAGE(text.is_ok(), text.status().str());
  CHECK(text->find("X: f32[N]") != std::string::npos);
  CHECK(rt->stats().plugin_compiles == 1);
}

TEST_CASE("lowering's refusals still come at compile; a kernel without shape symbols compiles at once") {
  auto rt = open_runtime({specializing_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference_specializing");
  REQUIRE(d.is_ok());
  auto bad = d->compile("kernel k(X: f32[N]) grid(1) threads(64) {\n  alloc x: fragment f32[64]\n  copy X[0], y\n}\n");
  CHECK_FALSE(bad.is_ok());
  auto fixed = d->compile("kernel k(X: f32[64], Y: f32[64]) grid(1) threads(64) {\n  alloc x: fragment f32[64]\n"
                          "  copy X[0], x\n  copy x, Y[0]\n}\n");
  REQUIRE_MESSAGE(fixed.is_ok(), fixed.status().str());
  CHECK(rt->stats().plugin_compiles == 1);
}

}  // namespace symbolic_variant_deferred_test
