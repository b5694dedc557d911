/// \file
/// One conformance case: a kernel in .tile text, the launch it gets (shape symbols and
/// scalars), how each tensor is filled and checked, and the tolerance class its outputs are
/// compared under. Cases are generated from a target description (Suite.h) and are plain
/// data, so the parent process and its workers build exactly the same list.
///
/// Names are dotted paths, one parameter axis per segment, e.g.
///   tegula.gemm.mma_sync.m16n8k16.bf16_f32.tn.k_tail
///   tegula.copy.global_shared.f16.edge
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/DType.h"

namespace tegula::conformance {

/// How a tensor's initial contents are made (Inputs.h has the exact value sets).
enum class Values : unsigned char {
  Lattice,       ///< ((r & 15) - 4) / 2, or a smaller exact set the dtype holds; small ints
  SmallLattice,  ///< {-0.5, 0, 0.5, 1} (sums stay exact in f16 accumulators); {-1, 0, 1, 2}
  Random,        ///< uniform over [-1, 1) rounded to the dtype; i8/u8 over their range, i32 over [-4096, 4096]
  Positive,      ///< uniform over [1/8, 8) (log, sqrt, rsqrt)
  NonZero,       ///< random without zero (divisors)
  Special,       ///< inf, NaN, max normal, subnormals, -0, ... between random values
  SignedZeros,   ///< +0 and -0 at random (max/min: -0 < +0, whatever the operand order)
  Indices,       ///< random indices in [0, index_limit)
  Offsets,       ///< segment starts: 0, then nondecreasing up to index_limit, with empty and one-long segments
  Bits,          ///< random bit patterns (copies: every encoding must survive)
};

const char* values_name(Values v);

enum class Role : unsigned char {
  Input,   ///< filled, must be unchanged after the run
  Output,  ///< poisoned before each run
  InOut,   ///< filled, compared with the reference afterwards (atomic_add destinations)
};

struct TensorSpec {
  Role role = Role::Input;
  Values values = Values::Lattice;
  int64_t index_limit = 0;  ///< Values::Indices and Values::Offsets
};

/// The ways outputs are compared; the numbers live in the tolerance table (Tolerances.h).
enum class Check : unsigned char {
  Exact,       ///< bit for bit (any NaN matches any NaN)
  Ulp,         ///< within the table's ulps for `function` and the output dtype
  Accumulate,  ///< sums of random values: bound scaled by `depth` and the accumulator dtype
};

struct CaseSpec {
  std::string name;
  std::string row;     ///< the report matrix row: a primitive or an instruction
  std::string kernel;  ///< .tile text
  /// Launch arguments after the parameters: shape symbols in order of first appearance.
  std::vector<std::pair<std::string, int64_t>> symbols;
  /// One per kernel parameter, tensors and scalars alike (scalars use `scalar`).
  std::vector<TensorSpec> tensors;
  std::vector<double> scalars;  ///< per parameter; meaningful for scalar parameters
  /// Per tensor parameter: how many elements past a 4 KiB boundary its data starts (a
  /// tensor view that is not 16-byte aligned); empty for all aligned.
  std::vector<int64_t> misalign;

  Check check = Check::Exact;
  std::string function;              ///< Ulp: the table entry ("exp", "div", ...)
  DType accumulator = DType::F32;    ///< Accumulate: the accumulator dtype
  DType operand = DType::F32;        ///< Accumulate: the input dtype (sets the product error)
  int64_t depth = 1;                 ///< Accumulate: terms summed per output (K)

  /// The kernel accesses elements outside its tensors on purpose: it is judged by what the
  /// device declares it does with such accesses (tegula_out_of_range), not by the oracle,
  /// which refuses it (run_out_of_range_case).
  bool out_of_range = false;
  /// out_of_range cases: the value a silent device leaves in every element of each output
  /// (loads outside read 0); none: every output is left as it was (stores outside dropped).
  std::optional<double> silent_value;

  /// Non-empty: the device does not claim what the case needs (NotSupported, not run).
  std::string unsupported;
  /// A forced matrix instruction: its catalogue id and the text its compiled code must
  /// contain (the catalogue mnemonic with the shape filled in).
  std::string instruction;
  std::string mnemonic;
  /// CompileOnly cases: the offline target (a built-in description's name).
  std::string offline_target;
};

}  // namespace tegula::conformance
