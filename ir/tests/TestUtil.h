// Helpers shared by the ir tests: reading the example kernels.
#pragma once

#include <string>
#include <vector>

#include "core/Files.h"

namespace tegula::ir::testing {

inline std::vector<std::string> example_files() {
  const std::string root = std::string(TEGULA_SOURCE_DIR) + "/examples/";
  return {root + "gemm/gemm_bf16.tile",      root + "gemm/gemm_f16.tile",
          root + "softmax/softmax_rows.tile", root + "reduce/row_sum.tile",
          root + "elementwise/silu_mul.tile", root + "elementwise/silu_mul_parallel.tile"};
}

inline std::string read_example(const std::string& path) {
  auto text = read_file(path);
  return text.is_ok() ? *text : std::string();
}

}  // namespace tegula::ir::testing
