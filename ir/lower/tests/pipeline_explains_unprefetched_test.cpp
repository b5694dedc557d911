// plan_pipelines says why a copy of a pipelined loop is not prefetched when another statement
// of the kernel writes its shared tile (a tail block after the loop that reuses the loop's
// tiles, as a first FlashAttention draft did): the loop then runs its copies synchronously,
// and without the note nothing in `--explain` showed it.
#include "ir/lower/tests/LowerCases.h"

namespace pipeline_explains_unprefetched_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

std::string kernel(bool tail_reuses_tile) {
  std::string tail = tail_reuses_tile ? "Ks" : "Kt";
  return "kernel k(K: bf16[M, 64], O: f32[M, 64]) grid(1) threads(128) {\n"
         "  alloc Ks: shared bf16[64, 64]\n  alloc Kt: shared bf16[64, 64]\n  alloc Acc: fragment f32[64, 64]\n"
         "  fill Acc, 0.0\n"
         "  pipelined j in 0 .. M / 64, stages=2 {\n    copy K[j * 64, 0], Ks\n    copy Ks, Acc\n  }\n"
         "  copy K[0, 0], " + tail + "\n  copy " + tail + ", Acc\n"
         "  copy Acc, O[0, 0]\n}\n";
}

}  // namespace

TEST_CASE("a pipelined copy whose tile is written outside the loop is not prefetched, and explain says why") {
  auto reused = lower_text(kernel(true), "sm_90a");
  REQUIRE_MESSAGE(reused.is_ok(), reused.status().str());
  CHECK(log_has(*reused, "copy into 'Ks' is not prefetched: 2 statements of the kernel write 'Ks'"));
  CHECK_FALSE(log_has(*reused, "copy into 'Ks' prefetched"));
  auto own = lower_text(kernel(false), "sm_90a");
  REQUIRE_MESSAGE(own.is_ok(), own.status().str());
  CHECK(log_has(*own, "copy into 'Ks' prefetched"));
  CHECK_FALSE(log_has(*own, "is not prefetched"));
}

}  // namespace pipeline_explains_unprefetched_test
