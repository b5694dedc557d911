// A kernel with rasterised block order (`raster=G`, lower.raster) compiles for gfx942: the
// workgroup ids go through ir::raster_remap's bijection, the grid's extents computed from its
// grid expressions (the backend used to refuse lower.raster, a kernel lowering had accepted).
// The remap's arithmetic is the one the interpreter and the CUDA backend run and test
// (ir/lower/tests/pipelines_barriers_test.cpp); on the device it is checked by conformance.
#include "plugins/hip/tests/HipTest.h"

namespace raster_compiles_test {

using namespace tegula;
using namespace tegula::hip::testing;

TEST_CASE("a rasterised 2-D grid compiles for gfx942, without scratch") {
  const char* plain =
      "kernel k(X: f32[M, N], Y: f32[M, N]) grid(ceildiv(N, 64), ceildiv(M, 4)) threads(64) {\n"
      "  alloc x: fragment f32[4, 64]\n  copy X[by * 4, bx * 64], x\n  copy x, Y[by * 4, bx * 64]\n}\n";
  std::string rasterised = plain;
  rasterised.insert(rasterised.find(" {\n"), ", raster=4");
  auto with = assembly_for(rasterised);
  REQUIRE_MESSAGE(with.is_ok(), with.status().str());
  auto without = assembly_for(plain);
  REQUIRE_MESSAGE(without.is_ok(), without.status().str());
  CHECK(asm_number(*with, ".amdhsa_private_segment_fixed_size ") == 0);
  // The remap adds code (the divisions by the group's size): the two kernels differ.
  CHECK(*with != *without);
  CHECK(with->size() > without->size());
}

}  // namespace raster_compiles_test
