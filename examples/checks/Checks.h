/// \file
/// Running example kernels against direct computations. An example names its direct
/// computation with the kernel attribute `reference=NAME` (matmul, softmax_rows, sum_rows,
/// silu_mul, rms_norm, rms_norm_residual, layer_norm, layer_norm_residual, scaled_matmul_bt, int4_matmul,
/// int4_zp_matmul, int4_matmul_f16w, attention, attention_causal); the check computes the expected value
/// of every tensor the kernel writes in float64 from the same inputs, without any tiling, and
/// compares them with what the kernel wrote.
///
/// MLA decode (examples/mla) has four: mla_decode (the final O and LSE), mla_decode_partials and
/// mla_paged_partials (a split kernel's partials, for the partition the kernels use), and
/// mla_combine (the combine on its own inputs). `tegula run` runs one kernel, so the split
/// pair is checked against mla_decode by running both kernels on the interpreter and handing
/// the combine's outputs to mla_decode's check (ir/tests/examples_mla_test.cpp).
///
/// Mamba-2's chunked scan (examples/mamba2) has one per kernel (mamba2_chunk_state,
/// mamba2_state_passing, mamba2_chunk_scan: each step of the chunked algorithm on its own
/// inputs) and mamba2_ssd, the sequential recurrence h_t = exp(A_t) h_{t-1} + B_t x_t^T,
/// y_t = C_t h_t that the fused kernel and the three-kernel chain (ir/tests/examples_mamba2_test.cpp)
/// must equal.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "ir/IR.h"
#include "ir/Interpreter.h"

namespace tegula::examples {

/// A tensor on the host, stored in its dtype's encoding (row-major).
struct HostTensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  int64_t numel() const;
  double at(int64_t i) const;
  std::vector<double> values() const;
};

/// Arguments for one launch: a tensor per tensor parameter (random inputs; outputs poisoned
/// with 0xff bytes, a NaN in every float encoding), a value per scalar and per symbol.
struct LaunchData {
  std::vector<HostTensor> tensors;  ///< indexed like Kernel::params (empty for scalars)
  std::vector<double> scalars;      ///< indexed like Kernel::params (unused for tensors)
  std::vector<int64_t> symbols;     ///< in Kernel::symbols() order
  std::vector<size_t> outputs;      ///< indices of the parameters the kernel writes
};

/// Parse "M=100,N=7" into bindings.
Result<std::map<std::string, int64_t>> parse_bindings(const std::string& text);

/// Make inputs for `k` with every shape symbol bound and a seeded generator. Float inputs are
/// uniform in [-1, 1) before rounding to their dtype; integers small.
Result<LaunchData> make_launch_data(const ir::Kernel& k, const std::map<std::string, int64_t>& bindings, uint64_t seed);

/// Interpreter arguments pointing into `data`.
std::vector<ir::Arg> interpreter_args(const ir::Kernel& k, LaunchData& data);

struct OutputComparison {
  std::string name;
  int64_t elements = 0;
  int64_t mismatches = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;
  std::string first_mismatch;  ///< "Y[3, 17]: got 1.5, expected 1.25" or empty
};

struct CheckResult {
  bool passed = false;
  std::vector<OutputComparison> outputs;
};

const std::vector<std::string>& direct_computation_names();
bool has_direct_computation(const ir::Kernel& k);

/// Compare the outputs in `data` with the direct computation the kernel names.
Result<CheckResult> check_outputs(const ir::Kernel& k, const LaunchData& data);

std::string format_check(const CheckResult& r);

}  // namespace tegula::examples
