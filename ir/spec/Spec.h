/// \file
/// Kernels from an algebraic spec: one einsum-style statement becomes a `.tile` program with
/// tunables (ir/Tunables.h), printed so that a person can read and edit it.
///
///   C[m, n] += A[m, k] * B[k, n]          a GEMM (operand layouts by index order, batch axes)
///   C[m, n] = gelu(A[m, k] * B[k, n] + bias[n]) * alpha
///                                         a GEMM with an elementwise epilogue
///   Y[m] = sum(X[m, n])                   a row reduction (sum, max, min)
///   Y[m, n] = softmax(X[m, n], n)         a row softmax
///
/// Lowering is successive: index roles first (output axes become block tile axes, the
/// contracted index a pipelined loop, a leading index of the output a grid z axis), then the
/// register tile (a fragment accumulator), then the memory tiles (shared operand tiles copied
/// per K step). Every error is located in the spec string (file "spec", line 1, the column).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"

namespace tegula::ir {

struct SpecOptions {
  /// The dtype of each tensor (and scalar) the statement names; scalars default to f32.
  std::vector<std::pair<std::string, DType>> dtypes;
  DType acc = DType::F32;  ///< the accumulator's dtype
  std::string name;        ///< the kernel's name; empty: one made from the output's
};

/// "A=bf16,B=bf16,C=f32" (the CLI's --dtypes), errors located as "--dtypes:1:column".
Result<std::vector<std::pair<std::string, DType>>> parse_spec_dtypes(std::string_view text);

/// The `.tile` text of the kernel `spec` describes, or a located error.
Result<std::string> kernel_from_spec(std::string_view spec, const SpecOptions& options);

}  // namespace tegula::ir
