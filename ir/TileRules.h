/// \file
/// The verifier's rules for the tiles of copy, fill and atomic_add (ir/OpList.h, copy, has
/// the semantics and the why): a tile's rank against its buffer's (equal, or lower for a
/// view of a global tensor, which names one offset per tensor axis), an explicit extent's
/// leading entries (1 for a view's single-index axes), and where a tile may lie (starting
/// inside a global tensor, wholly inside any other buffer). Kept beside the verifier, which
/// looks the buffers up and calls these.
#pragma once

#include <vector>

#include "core/Status.h"
#include "ir/Analysis.h"
#include "ir/IR.h"

namespace tegula::ir {

/// Tile `t` of buffer `b` under the op's extent `tile` (tile_op_extent): its rank, then its
/// bounds along every axis of the buffer.
Status check_tile_bounds(const TileRef& t, const BufferInfo& b, const std::vector<int64_t>& tile);

/// The `extent` attribute of tile op `s` (if any) against its operands `bufs`.
Status check_extent_attr(const Stmt& s, const std::vector<const BufferInfo*>& bufs);

}  // namespace tegula::ir
