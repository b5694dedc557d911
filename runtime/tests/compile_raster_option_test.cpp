// The raster_group compile option lowers every variant with rasterised block order: a
// different lowering (its own cache entry) with the same results, and a caller whose
// options struct predates the field gets the order it asked for before (none).
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "runtime/tests/TestSupport.h"

namespace compile_raster_option_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

// Each block copies its own 4x4 tile: the result does not depend on block order.
const char* kTiles =
    "kernel tiles(A: f32[8, 12], B: f32[8, 12]) grid(3, 2) threads(16) {\n"
    "  alloc S: shared f32[4, 4]\n"
    "  copy A[by * 4, bx * 4], S\n"
    "  copy S, B[by * 4, bx * 4]\n"
    "}\n";

std::vector<float> run(const Device& d, Kernel& k) {
  std::vector<float> a(96);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i) * 0.5f - 7.0f;
  auto x = d.alloc(a.size() * 4);
  auto y = d.alloc(a.size() * 4);
  REQUIRE(x->write(a).is_ok());
  REQUIRE(y->fill<uint32_t>(0x7fc00000u, 0, a.size() * 4).is_ok());  // NaN poison
  REQUIRE(k.launch({Arg::tensor(*x), Arg::tensor(*y)}).is_ok());
  REQUIRE(d.synchronize().is_ok());
  auto out = y->read<float>(a.size());
  REQUIRE(out.is_ok());
  CHECK(*out == a);
  return *out;
}

}  // namespace

TEST_CASE("rasterised variants are their own cache entries and compute the same") {
  std::string cache = scratch_dir("raster_option");
  auto rt = open_runtime({reference_manifest()}, nullptr, cache);
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  CompileOptions raster;
  raster.raster_group = 2;
  auto plain = d->compile(kTiles);
  REQUIRE_MESSAGE(plain.is_ok(), plain.status().str());
  CHECK(plain->cache_result() == TEGULA_CACHE_MISS);
  auto grouped = d->compile(kTiles, raster);
  REQUIRE_MESSAGE(grouped.is_ok(), grouped.status().str());
  CHECK(grouped->cache_result() == TEGULA_CACHE_MISS);  // another lowering: lower.raster=2
  CHECK(d->compile(kTiles, raster)->cache_result() == TEGULA_CACHE_HIT);
  CHECK(run(*d, *plain) == run(*d, *grouped));
}

TEST_CASE("an options struct from before raster_group leaves the order alone") {
  std::string cache = scratch_dir("raster_option_old");
  auto rt = open_runtime({reference_manifest()}, nullptr, cache);
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  REQUIRE(d->compile(kTiles)->cache_result() == TEGULA_CACHE_MISS);
  tegula_compile_options o;
  tegula_compile_options_init(&o);
  o.raster_group = 2;                                        // beyond what the caller says it set:
  o.struct_size = offsetof(tegula_compile_options, raster_group);  // not read
  tegula_kernel* k = nullptr;
  REQUIRE(tegula_kernel_compile(d->handle(), kTiles, std::strlen(kTiles), &o, &k) == nullptr);
  CHECK(tegula_kernel_cache_result(k) == TEGULA_CACHE_HIT);  // the plain entry
  tegula_kernel_free(k);
}

TEST_CASE("misuse: a raster group beyond any grid is refused at compile") {
  auto rt = open_runtime({reference_manifest()}, nullptr, "off");
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  CompileOptions huge;
  huge.raster_group = 4000000000u;
  auto k = d->compile(kTiles, huge);
  REQUIRE_FALSE(k.is_ok());
  CHECK(k.status().message().find("raster group 4000000000 is larger than 65535") != std::string::npos);
}

}  // namespace compile_raster_option_test
