// A kernel with tunables compiles and runs through the API: each launch's shape class runs
// the binding chosen for it, with that binding's own grid; tegula_kernel_tunables says which
// binding ran and how it was chosen; tunables given at compile time fix the instance.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace tunable_kernel_launch_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("each shape class runs a binding ranked for it, with its own grid") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto k = d->compile(tunable_scale_ir());
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto before = k->tunables();
  REQUIRE(before.is_ok());
  CHECK(before->second == "ranked");
  CHECK(before->first.find("B=") != std::string::npos);
  for (int64_t n : {1000, 7, 1, 4096, 1000}) {
    CAPTURE(n);
    CHECK(run_scale(*d, *k, n) == "");
    auto t = k->tunables();
    REQUIRE(t.is_ok());
    CHECK(t->second == "ranked");
  }
}

TEST_CASE("tunables given at compile time fix the instance for every launch") {
  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  for (const char* given : {"B=64,T=32", "T=64 B=256"}) {
    CAPTURE(given);
    CompileOptions o;
    o.tunables = given;
    auto k = d->compile(tunable_scale_ir(), o);
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    for (int64_t n : {300, 64, 5}) CHECK(run_scale(*d, *k, n) == "");
    auto t = k->tunables();
    REQUIRE(t.is_ok());
    CHECK(t->second == "given");
    CHECK(t->first == (std::string(given) == "B=64,T=32" ? "B=64 T=32" : "B=256 T=64"));
  }
}

TEST_CASE("a kernel without tunables reports none") {
  auto rt = open_runtime({reference_manifest()});
  auto k = rt->find_device("reference")->compile(axpb_ir());
  REQUIRE(k.is_ok());
  auto t = k->tunables();
  REQUIRE(t.is_ok());
  CHECK(t->first.empty());
  CHECK(t->second.empty());
}

}  // namespace tunable_kernel_launch_test
