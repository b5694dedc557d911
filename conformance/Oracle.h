/// \file
/// The host side of a case: its inputs, made from the case's value sets and seed, and what
/// the reference interpreter (float64, every store rounded) leaves in every tensor when it
/// runs the kernel on them. Outputs start as NaN poison, except where the reference's result
/// is a NaN: those start at a finite sentinel (and the reference runs again from there), so a
/// device that never writes them fails. For cases checked under the accumulation bound, the
/// same kernel also runs on the inputs' absolute values, which gives each output's magnitude
/// bound.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/Case.h"
#include "core/Status.h"
#include "ir/IR.h"

namespace tegula::conformance {

struct HostCase {
  ir::Kernel kernel;
  /// Per kernel parameter (empty for scalars): resolved shape, contents before the run,
  /// contents after the reference run, and (Accumulate only) the magnitude run.
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::vector<uint8_t>> initial;
  std::vector<std::vector<uint8_t>> expected;
  std::vector<std::vector<uint8_t>> magnitude;
  /// Shape symbol values, in the kernel's launch order.
  std::vector<int64_t> symbols;
  uint64_t seed = 0;
};

Result<HostCase> prepare_host_case(const CaseSpec& spec, uint64_t run_seed);

}  // namespace tegula::conformance
