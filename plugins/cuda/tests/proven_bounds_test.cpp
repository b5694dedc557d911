// Global tiles that lowering proved inside their tensor (plan.inbounds, from the index ranges
// of a constant grid and serial loop bounds: ir/lower/ProveInBounds.cpp) are copied without
// a bounds test in the proven dimensions; an unproven dimension keeps its test. Checked on
// the generated C++ and through NVRTC; gpu_tile_ops_test and the conformance suite run copies.
#include "plugins/cuda/tests/CudaTest.h"

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

std::string tile_copy(const std::string& shape, const std::string& grid) {
  return "kernel g(X: f32" + shape + ", Y: f32" + shape + ") grid(" + grid + ") threads(128) {\n  alloc S: shared f32[16, 64]\n" +
         "  copy X[by * 16, bx * 64], S\n  copy S, Y[by * 16, bx * 64]\n}\n";
}

}  // namespace

TEST_CASE("a copy the grid keeps inside a static tensor has no bounds test") {
  TG_REQUIRE_NVRTC();
  auto g = generate_for(tile_copy("[64, 128]", "2, 4"), "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  // Block offsets are not constants, so the constant-offset rule CUDA had proved nothing here.
  CHECK_FALSE(contains(g->source, "(unsigned long long)gd_X_"));
  CHECK_FALSE(contains(g->source, "(unsigned long long)gd_Y_"));
  auto ptx = ptx_for(tile_copy("[64, 128]", "2, 4"), "sm_90a");
  CHECK_MESSAGE(ptx.is_ok(), ptx.status().str());
}

TEST_CASE("only the proven dimension loses its test") {
  TG_REQUIRE_NVRTC();
  // bx reaches 2, past the 128 columns; by stays inside the 64 rows.
  auto g = generate_for(tile_copy("[64, 128]", "3, 4"), "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  CHECK(contains(g->source, "(unsigned long long)gd_X_1"));
  CHECK(contains(g->source, "(unsigned long long)gd_Y_1"));
  CHECK_FALSE(contains(g->source, "(unsigned long long)gd_X_0"));
  CHECK_FALSE(contains(g->source, "(unsigned long long)gd_Y_0"));
}

TEST_CASE("symbolic sizes keep every test") {
  TG_REQUIRE_NVRTC();
  auto g = generate_for(tile_copy("[M, N]", "ceildiv(N, 64), ceildiv(M, 16)"), "sm_90a");
  REQUIRE_MESSAGE(g.is_ok(), g.status().str());
  for (const char* dim : {"gd_X_0", "gd_X_1", "gd_Y_0", "gd_Y_1"}) CHECK(contains(g->source, std::string("(unsigned long long)") + dim));
}
