// Rows the lowering lacks say "not yet" where the target could use them and "not
// applicable" with the reason where it could not: never "applies".
#include "ir/lower/optimizations/tests/RowCases.h"

namespace not_yet_rows_test {

using namespace tegula::ir::optimizations;
using namespace tegula::ir::optimizations::testing;

TEST_CASE("warp specialisation is not yet done on the targets with a bulk copy engine, and not applicable elsewhere") {
  for (const char* t : {"sm_90a", "sm_100a"}) {
    Cell c = cell_on("warp_specialisation", t);
    CHECK(c.state == CellState::NotYet);
    CHECK(c.reason.find("same program") != std::string::npos);
  }
  check_not_applicable("warp_specialisation", "sm_80", "no bulk_tensor_copy feature");
}

TEST_CASE("block-scaled MMA is not yet done on sm_100a and gfx950, not applicable on sm_90a") {
  CHECK(cell_on("block_scaled_mma", "sm_100a").state == CellState::NotYet);
  CHECK(cell_on("block_scaled_mma", "gfx950").state == CellState::NotYet);
  check_not_applicable("block_scaled_mma", "sm_90a", "no block-scaled matrix instruction");
}

TEST_CASE("split-K and stmatrix are not yet done") {
  for (const std::string& t : tegula::builtin_target_names()) CHECK(cell_on("split_k", t).state == CellState::NotYet);
  CHECK(cell_on("stmatrix", "sm_90a").state == CellState::NotYet);
  check_not_applicable("stmatrix", "sm_80", "no stmatrix feature");
}

}  // namespace not_yet_rows_test
