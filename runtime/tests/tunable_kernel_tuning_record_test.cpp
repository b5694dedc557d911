// A measured choice recorded for a shape class (tegula_kernel_record_tuning, what tegula
// tune does) is what later compiles of the same text use at launches of that class, in the
// same runtime and in the next; other classes are still ranked; a damaged record is not
// believed.
#include <doctest/doctest.h>

#include <filesystem>

#include "core/Files.h"
#include "runtime/tests/TestSupport.h"

namespace tunable_kernel_tuning_record_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

std::string record(Device& d, const std::string& binding, int64_t n) {
  auto k = d.compile(tunable_scale_ir());
  if (!k.is_ok()) return k.status().str();
  auto X = d.alloc(uint64_t(n) * 4);
  auto Y = d.alloc(uint64_t(n) * 4);
  Status st = k->record_tuning({Arg::tensor(*X), Arg::tensor(*Y), Arg::integer(n)}, binding, 0.25);
  return st.is_ok() ? "" : st.str();
}

std::pair<std::string, std::string> launched(Device& d, int64_t n) {
  auto k = d.compile(tunable_scale_ir());
  REQUIRE(k.is_ok());
  REQUIRE(run_scale(d, *k, n) == "");
  return *k->tunables();
}

}  // namespace

TEST_CASE("a recorded choice is used for its class, in this runtime and the next") {
  std::string cache = scratch_dir("tuning_record");
  {
    auto rt = open_runtime({reference_manifest()}, nullptr, cache);
    auto d = rt->find_device("reference");
    REQUIRE(record(*d, "B=128,T=64", 1000) == "");
    CHECK(launched(*d, 1000) == std::make_pair(std::string("B=128 T=64"), std::string("measured")));
    // 1016 is in the same class as 1000 (divisor 8, the same size bucket); 1001 is not.
    CHECK(launched(*d, 1016).second == "measured");
    CHECK(launched(*d, 1001).second == "ranked");
  }
  auto rt = open_runtime({reference_manifest()}, nullptr, cache);
  auto d = rt->find_device("reference");
  CHECK(launched(*d, 1000) == std::make_pair(std::string("B=128 T=64"), std::string("measured")));
  // A new record replaces the old.
  REQUIRE(record(*d, "B=256,T=32", 1000) == "");
  CHECK(launched(*d, 1000).first == "B=256 T=32");
}

TEST_CASE("a damaged record is not believed") {
  std::string cache = scratch_dir("tuning_record_damaged");
  auto rt = open_runtime({reference_manifest()}, nullptr, cache);
  auto d = rt->find_device("reference");
  REQUIRE(record(*d, "B=64,T=64", 1000) == "");
  for (const auto& e : std::filesystem::directory_iterator(cache + "/kernels-v1")) {
    auto bytes = read_file(e.path().string());
    REQUIRE(bytes.is_ok());
    std::string damaged = *bytes;
    damaged[damaged.size() - 3] ^= 0x5a;  // inside the payload: its hash no longer matches
    REQUIRE(write_file_atomic(e.path().string(), damaged).is_ok());
  }
  auto fresh = open_runtime({reference_manifest()}, nullptr, cache);
  auto again = fresh->find_device("reference");
  CHECK(launched(*again, 1000).second == "ranked");
}

}  // namespace tunable_kernel_tuning_record_test
