// Misused tunable kernels fail with the reason: tunables given to a kernel without any, a
// binding that does not fit, recording for a kernel that has no choice to make or with the
// wrong arguments, warming up a kernel whose variants are chosen per class, and a tune space
// none of whose candidates the device can run.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace tunable_kernel_misuse_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

std::string compile_error(Device& d, const std::string& text, const std::string& tunables) {
  CompileOptions o;
  o.tunables = tunables;
  auto k = d.compile(text, o);
  return k.is_ok() ? "" : k.status().message();
}

}  // namespace

TEST_CASE("bindings that do not fit the kernel") {
  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  CHECK(compile_error(*d, axpb_ir(), "B=64").find("the kernel declares none") != std::string::npos);
  CHECK(compile_error(*d, tunable_scale_ir(), "B=64").find("tunable T has no value") != std::string::npos);
  CHECK(compile_error(*d, tunable_scale_ir(), "B=65,T=32").find("not one of its candidates [64, 128, 256]") !=
        std::string::npos);
  CHECK(compile_error(*d, tunable_scale_ir(), "B=64,T=32,Q=1").find("'Q' is not a tunable") != std::string::npos);
}

TEST_CASE("recording where there is no choice, or with the wrong arguments") {
  auto rt = open_runtime({reference_manifest()}, nullptr, scratch_dir("tuning_misuse"));
  auto d = rt->find_device("reference");
  auto X = d->alloc(64);
  auto Y = d->alloc(64);
  std::vector<Arg> args{Arg::tensor(*X), Arg::tensor(*Y), Arg::integer(16)};
  auto plain = d->compile(axpb_ir());
  REQUIRE(plain.is_ok());
  CHECK(plain->record_tuning({Arg::tensor(*X), Arg::tensor(*Y), Arg::number(1), Arg::number(0), Arg::integer(16)},
                             "B=64", 1.0).message().find("has no tunables") != std::string::npos);
  CompileOptions fixed;
  fixed.tunables = "B=64,T=32";
  auto given = d->compile(tunable_scale_ir(), fixed);
  REQUIRE(given.is_ok());
  CHECK(given->record_tuning(args, "B=64,T=32", 1.0).message().find("compiled with its tunables given") != std::string::npos);
  auto k = d->compile(tunable_scale_ir());
  REQUIRE(k.is_ok());
  CHECK(k->record_tuning({Arg::tensor(*X)}, "B=64,T=32", 1.0).message().find("takes 3 arguments") != std::string::npos);
  CHECK(k->record_tuning(args, "B=64,T=99", 1.0).message().find("not one of its candidates") != std::string::npos);
  CHECK(k->record_tuning(args, "B=64,T=32", -1.0).message().find("non-negative time") != std::string::npos);
  CHECK(k->warm_up().message().find("chosen per shape class") != std::string::npos);
  // Without a cache there is nowhere to keep a choice.
  auto off = open_runtime({reference_manifest()});
  auto k2 = off->find_device("reference")->compile(tunable_scale_ir());
  REQUIRE(k2.is_ok());
  CHECK(k2->record_tuning(args, "B=64,T=32", 1.0).message().find("cache is off") != std::string::npos);
}

TEST_CASE("a space no candidate of which the device can run") {
  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  const char* too_wide =
      "kernel wide(X: f32[N]) tune(T in [4096, 8192]) grid(1) threads(T) {\n"
      "  alloc x: shared f32[64]\n"
      "  copy X[0], x\n"
      "}\n";
  auto k = d->compile(too_wide);
  REQUIRE(!k.is_ok());
  CHECK(k.status().code() == ErrorCode::Unsupported);
  CHECK(k.status().message().find("no candidate of its tune space lowers") != std::string::npos);
  CHECK(k.status().message().find("T=4096") != std::string::npos);
}

}  // namespace tunable_kernel_misuse_test
