// The matrix-instruction rows: each family is chosen on its targets (the marker names the
// catalogue entry) and is not applicable, naming the missing instruction kind, elsewhere.
#include "ir/lower/optimizations/tests/RowCases.h"

namespace matrix_instruction_rows_test {

using namespace tegula::ir::optimizations::testing;

TEST_CASE("mma.sync and its ldmatrix operand plan apply on every NVIDIA target, for a gemm too small for a warpgroup") {
  for (const char* t : {"sm_80", "sm_89", "sm_90a", "sm_100a"}) {
    CAPTURE(t);
    check_applies("mma_sync", t, "mma.inst=\"mma_sync.");
    check_applies("ldmatrix", t, "mma.a=registers, mma.b=registers");
  }
  check_not_applicable("mma_sync", "gfx942", "no mma_sync instruction");
  check_not_applicable("ldmatrix", "gfx942", "no ldmatrix feature");
}

TEST_CASE("wgmma, A from registers and the gemm kept in flight apply on sm_90a only") {
  check_applies("wgmma", "sm_90a", "mma.inst=\"wgmma.");
  check_applies("wgmma_register_a", "sm_90a", "mma.a=registers");
  check_applies("wgmma_overlap", "sm_90a", "plan.inflight=");
  for (const char* t : {"sm_80", "sm_100a", "gfx942"}) {
    CAPTURE(t);
    check_not_applicable("wgmma", t, "no wgmma instruction");
    check_not_applicable("wgmma_register_a", t, "no wgmma instruction");
    check_not_applicable("wgmma_overlap", t, "asynchronous groups");
  }
}

TEST_CASE("tcgen05 applies on sm_100a with its tensor-memory slot, MFMA on gfx942 and gfx950") {
  check_applies("tcgen05", "sm_100a", "lower.tmem_slot=");
  check_not_applicable("tcgen05", "sm_90a", "no tcgen05 instruction");
  check_applies("mfma", "gfx942", "mma.inst=\"mfma.");
  check_applies("mfma", "gfx950", "mma.inst=\"mfma.");
  check_not_applicable("mfma", "sm_90a", "no mfma instruction");
  check_not_applicable("mfma", "host_cpu", "no mfma instruction");
}

}  // namespace matrix_instruction_rows_test
