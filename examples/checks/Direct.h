/// \file
/// Internal to the example checks: what a direct computation returns, shared by Checks.cpp
/// and the per-family files (Mamba2.cpp). Not installed.
#pragma once

#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "examples/checks/Checks.h"

namespace tegula::examples::detail {

/// For each tensor a kernel writes (in parameter order): the expected values and a
/// per-element magnitude that scales the tolerance (for sums: the sum of absolute terms; the
/// comparison allows 2^-18 of it besides the output dtype's rounding).
struct Expected {
  std::vector<double> value;
  std::vector<double> magnitude;
};

/// Every parameter's scalar value (0 for tensors), in parameter order.
using Scalars = std::vector<double>;
using Tensors = std::vector<const HostTensor*>;

/// An InvalidArgument naming the shapes `what` expects, unless `ok`.
Status want_shape(bool ok, const std::string& what);

/// Half the distance from 1 to the next value of `t`.
double unit_roundoff(DType t);

// Mamba-2's chunked scan (examples/mamba2, Mamba2.cpp).
Result<std::vector<Expected>> mamba2_chunk_state(const Tensors& t, const Scalars&);
Result<std::vector<Expected>> mamba2_state_passing(const Tensors& t, const Scalars&);
Result<std::vector<Expected>> mamba2_chunk_scan(const Tensors& t, const Scalars&);
Result<std::vector<Expected>> mamba2_ssd(const Tensors& t, const Scalars&);

}  // namespace tegula::examples::detail
