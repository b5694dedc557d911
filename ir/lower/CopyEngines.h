/// \file
/// When a copy engine can move a prefetched copy, decided once: plan_pipelines
/// (PlanPipelines.cpp) asks these to choose `plan.engine`, the lowered-form check
/// (VerifyLowered.cpp) asks them again to refuse a forged `plan.engine`, and a backend reads
/// the bulk engine's box geometry from `bulk_copy_box` instead of re-deriving legality.
///
/// - The tensor copy engine (cp.async.bulk.tensor on sm_90 and later, Feature::BulkTensorCopy)
///   moves a whole 2-D tile from a 2-D tensor in boxes of at most 256 x 256 elements, written
///   densely into shared memory (no row padding), plain or as column blocks of 16 bytes, or of
///   32/64/128 bytes with the matching swizzle (bits 1/2/3, base 4, shift 3); each box starts
///   on 128 bytes and the tensor's rows on 16 (plan.vec says so); elements past the tensor
///   read as 0 or NaN (so `pad` must be one of those); it converts nothing (same dtype, and
///   not e5m2, whose stores saturate).
/// - The asynchronous copy unit (cp.async on sm_80 and later, Feature::AsyncCopy) moves 4, 8
///   or 16 bytes per thread and instruction, zero-filling past the edge, so each thread's
///   vectors must land contiguously and aligned in the shared layout.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Status.h"
#include "ir/Analysis.h"
#include "ir/IR.h"
#include "ir/lower/Distribution.h"
#include "ir/lower/SharedLayout.h"

namespace tegula::ir {

/// The boxes in which the tensor copy engine moves one copy.
struct BulkBox {
  int64_t rows = 0, cols = 0;  ///< one box, in elements (outer, inner)
  int64_t boxes = 0;           ///< boxes per copy (one per column block)
  int64_t bytes = 0;           ///< bytes the copy writes: what its barrier waits for
  int64_t swizzle_bytes = 0;   ///< 0 (none), 32, 64 or 128
  bool nan_fill = false;       ///< elements past the tensor read as NaN (pad = nan), else 0
};

/// Whether the bulk engine can move global -> shared copy `copy` into a buffer of layout
/// `dst` (its `align` as placed: the engine needs 128), and in which boxes; otherwise an
/// Unsupported error saying why.
Result<BulkBox> bulk_copy_box(const Stmt& copy, const BufferMap& buffers, const SharedLayout& dst);

/// Whether the asynchronous copy unit can move `copy` into a buffer of layout `dst`, with
/// `vec` elements per access under thread plan `plan` over `threads` threads; otherwise an
/// Unsupported error saying why.
Status async_copy_fits(const Stmt& copy, const BufferMap& buffers, const SharedLayout& dst, const Distribution& plan, int64_t vec,
                       int64_t threads);

/// The alignment the tensor copy engine needs of each box in shared memory.
constexpr int64_t kBulkCopyAlign = 128;

}  // namespace tegula::ir
