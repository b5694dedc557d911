/// \file
/// The plan half of a copy (Tiles.cpp): what emit_copy decides before it writes a line, kept
/// apart from the emission so that it can be tested on its own. A copy moves `CopyAccess::n`
/// elements per access (the plan's vector width, or one where a shared side's layout does
/// not keep vectors contiguous), as raw bytes where both sides share an encoding, and tests
/// only the global dimensions lowering did not prove inside (plan.inbounds).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/lower/Lowered.h"
#include "plugins/cuda/codegen/Emitter.h"

namespace tegula::cuda::gen {

/// One side of a copy-like op.
struct Side {
  const Buffer* b = nullptr;
  std::vector<std::string> off;     ///< tile offsets as C++ long long expressions ("0" for none)
  std::vector<int64_t> const_off;   ///< the same, when constant (empty otherwise)
  bool exec = false;                ///< the fragment the op runs over
  std::vector<int64_t> slots;       ///< for a non-exec fragment side: exec slot -> slot
};

/// How a copy moves its elements.
struct CopyAccess {
  int64_t n = 1;                      ///< elements per access
  std::vector<Elem> elems;            ///< each thread's accesses, n elements each
  bool raw = false;                   ///< bytes moved as they are (same encoding on both sides)
  std::vector<bool> src_in, dst_in;   ///< per dimension: no bounds test (proven inside)
  double pad = 0;                     ///< read outside a global source, rounded to the destination
};

/// What the read phase leaves for the write phase, per access.
struct CopyValues {
  std::vector<std::vector<Value>> vals;  ///< the values read
  std::vector<std::string> rvs;          ///< the raw vector read, when one was
  std::vector<std::string> pre;          ///< statements the write runs before using vals
};

/// The plan of a copy between `src` and `dst` of rank `rank` whose threads access `elems`
/// (vector groups of the plan's width); `shared_vectors_ok[i]` says whether side i (source,
/// destination), when shared, keeps such vectors contiguous and aligned. Emits nothing.
CopyAccess plan_copy_access(const Side& src, const Side& dst, std::vector<Elem> elems, const ir::CopyPlan& plan, size_t rank,
                            const std::array<bool, 2>& shared_vectors_ok);

}  // namespace tegula::cuda::gen
