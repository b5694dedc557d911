// The tcgen05 accumulators of sm_100a live in tensor memory as research/mma.md section 3
// states: for M=128 row m is TMEM lane m and column n is column n; for M=64 the rows use the
// first 16 lanes of each 32-lane sub-partition. The 32x32b read-back gives thread 32i+L
// (warp i, lane L) TMEM lane 32i+L, one value per column.
#include <doctest/doctest.h>

#include <cstdint>

#include "targets/MatrixQuery.h"
#include "targets/Target.h"

namespace tcgen05_tmem_test {

using namespace tegula;

TEST_CASE("tcgen05 tensor-memory addresses and read-back fragments") {
  Result<TargetDescription> t = builtin_target("sm_100a");
  REQUIRE(t.is_ok());
  int entries = 0;
  for (const MatrixInstruction& mi : t->matrix_instructions) {
    if (mi.kind != InstructionKind::Tcgen05) continue;
    CAPTURE(mi.id);
    ++entries;
    CHECK(mi.issue_threads == 1);
    CHECK(mi.acc.placements.size() == 1);
    const OperandPlacement* tm = mi.acc.find(OperandLocation::TensorMemory);
    REQUIRE(tm != nullptr);
    CHECK(mi.a.find(OperandLocation::Shared) != nullptr);
    CHECK(mi.b.find(OperandLocation::Shared) != nullptr);
    for (const MmaShape& s : instruction_shapes(mi)) {
      Result<BoundLayout> address = tm->address_layout.bind(shape_symbols(s));
      REQUIRE(address.is_ok());
      for (int m = 0; m < s.m; ++m) {
        int lane = s.m == 128 ? m : m % 16 + 32 * (m / 16);
        for (int n = 0; n < s.n; ++n) {
          if (address->index(m, n) == (int64_t(lane) << 16 | n)) continue;
          FAIL_CHECK("m=" << m << " n=" << n << " N=" << s.n);
        }
      }
      if (s.m != 128) {
        CHECK(!tm->readback_layout.has_value());
        continue;
      }
      CHECK(tm->readback == "tcgen05.ld.sync.aligned.32x32b");
      REQUIRE(tm->readback_layout.has_value());
      Result<BoundLayout> rb = tm->readback_layout->bind(shape_symbols(s));
      REQUIRE(rb.is_ok());
      for (int thread = 0; thread < 128; ++thread) {
        int tmem_lane = 32 * (thread / 32) + thread % 32;
        for (int v = 0; v < s.n; ++v) {
          if (rb->index(thread, v) == tmem_lane + 128 * v) continue;
          FAIL_CHECK("thread " << thread << " value " << v);
        }
      }
    }
  }
  CHECK(entries == 22);
}

}  // namespace tcgen05_tmem_test
