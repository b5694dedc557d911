// A compile-cache hit neither parses nor lowers the IR (tegula_runtime_stats counts both):
// the entry holds the kernel's launch header and written tensors beside the executable, and
// the kernel it gives has the same signature, launch checks and error locations as one
// compiled afresh. A variant a launch needs is a hit too; one not cached parses once.
#include <doctest/doctest.h>

#include "core/Files.h"
#include "runtime/tests/TestSupport.h"

namespace compile_cache_hit_no_lowering_test {

using namespace tegula;
using namespace tegula::testing;

namespace {

void check_same_signature(Kernel& a, Kernel& b) {
  auto sa = a.signature();
  auto sb = b.signature();
  REQUIRE(sa.is_ok());
  REQUIRE(sb.is_ok());
  REQUIRE(sa->size() == sb->size());
  for (size_t i = 0; i < sa->size(); ++i) {
    const auto& x = (*sa)[i];
    const auto& y = (*sb)[i];
    INFO("argument " << i);
    CHECK(x.name == y.name);
    CHECK(x.kind == y.kind);
    CHECK(x.is_shape_symbol == y.is_shape_symbol);
    CHECK(x.dtype == y.dtype);
    CHECK(x.written == y.written);
    CHECK(x.dims == y.dims);
    CHECK(x.dim_args == y.dim_args);
  }
}

/// A kernel whose grid can be negative: the launch error names the grid's source position.
const char* shifted_ir() {
  return "kernel shifted(X: f32[N]) grid(N - 10) threads(32) {\n"
         "  alloc x: fragment f32[32]\n"
         "  fill x, 1.0\n"
         "  copy x, X[bx * 32]\n"
         "}\n";
}

}  // namespace

TEST_CASE("a hit parses and lowers nothing and gives the kernel a fresh compile gives") {
  std::string cache = scratch_dir("cache_hit_no_lowering");
  std::string text = read_file(example("reduce/row_sum.tile")).value();
  CompileOptions named;
  named.source_name = "row_sum.tile";
  {
    auto rt = open_runtime({reference_manifest()}, nullptr, cache);
    auto d = rt->find_device("reference");
    auto k = d->compile(text, named);
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    CHECK(rt->stats().ir_parses == 1);
    CHECK(rt->stats().ir_lowerings == 1);
    REQUIRE(k->warm_up({0x10, 0x10}).is_ok());  // the variant for M % 16, N % 16 goes in the cache
    CHECK(rt->stats().ir_parses == 1);            // the kernel's verified IR is kept
    CHECK(rt->stats().ir_lowerings == 2);
  }
  auto fresh_rt = open_runtime({reference_manifest()});
  auto fresh = fresh_rt->find_device("reference")->compile(text, named);
  REQUIRE(fresh.is_ok());

  CapturedLog log;
  auto rt = open_runtime({reference_manifest()}, &log, cache);
  auto d = rt->find_device("reference");
  auto k = d->compile(text, named);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(k->cache_result() == TEGULA_CACHE_HIT);
  CHECK(rt->stats().ir_parses == 0);
  CHECK(rt->stats().ir_lowerings == 0);
  CHECK(rt->stats().plugin_compiles == 0);
  CHECK(k->name() == "row_sum");
  check_same_signature(*k, *fresh);

  // The cached variant: still nothing parsed.
  auto x = d->alloc(16 * 32 * 2);
  auto y = d->alloc(16 * 4);
  REQUIRE(x.is_ok());
  REQUIRE(y.is_ok());
  REQUIRE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::integer(16), Arg::integer(32)}).is_ok());
  CHECK(rt->stats().ir_parses == 0);
  CHECK(rt->stats().ir_lowerings == 0);
  CHECK(log.contains("kernel row_sum: loaded the variant for M % 16 == 0, N % 16 == 0 from the compile cache at its first use"));
  // A variant nobody compiled: the IR is parsed then, once, and lowered.
  REQUIRE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::integer(8), Arg::integer(32)}).is_ok());
  REQUIRE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::integer(4), Arg::integer(32)}).is_ok());
  CHECK(rt->stats().ir_parses == 1);
  CHECK(rt->stats().ir_lowerings == 2);
  CHECK(rt->stats().plugin_compiles == 2);
}

TEST_CASE("launch checks of a kernel from the cache keep the source positions") {
  std::string cache = scratch_dir("cache_hit_positions");
  CompileOptions named;
  named.source_name = "shifted.tile";
  auto refusal = [&](const std::string& cache_dir, tegula_cache_result expected) {
    auto rt = open_runtime({reference_manifest()}, nullptr, cache_dir);
    auto d = rt->find_device("reference");
    auto k = d->compile(shifted_ir(), named);
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    CHECK(k->cache_result() == expected);
    auto x = d->alloc(64 * 4);
    Status st = k->launch({Arg::tensor(*x), Arg::integer(2)});
    REQUIRE_FALSE(st.is_ok());
    return st;
  };
  Status fresh = refusal(cache, TEGULA_CACHE_MISS);
  Status cached = refusal(cache, TEGULA_CACHE_HIT);
  CHECK(fresh.message().find("grid dimension 'N - 10' is negative (-8)") != std::string::npos);
  CHECK(fresh.loc().file == "shifted.tile");
  CHECK(fresh.loc().line == 1);
  CHECK(cached.str() == fresh.str());
  CHECK(cached.loc().file == fresh.loc().file);
  CHECK(cached.loc().line == fresh.loc().line);
  CHECK(cached.loc().column == fresh.loc().column);
}

}  // namespace compile_cache_hit_no_lowering_test
