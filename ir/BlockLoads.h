/// \file
/// The verifier's rules for block-level loads (ir/OpList.h has the semantics and the why):
/// outside a parallel loop a load is one value for the whole block, so it must read an
/// integer element of a global tensor that the kernel does not write, and it may not place
/// a shared or fragment tile. Kept beside the verifier, which calls these where it types a
/// load at block level and where it types the offsets of a block-level tile op.
#pragma once

#include <set>
#include <string>

#include "core/Status.h"
#include "ir/Analysis.h"
#include "ir/IR.h"

namespace tegula::ir {

/// A load at block level of `buffer` (what `load`'s name refers to). `in_grid`: the load
/// is in the kernel's grid, which is computed before launch. `written`: the tensors the
/// kernel writes.
Status check_block_load(const Expr& load, const BufferInfo& buffer, bool in_grid, const std::set<std::string>& written);

/// An offset of tile `t` into buffer `b` at block level: no load in it unless `b` is global
/// (masked at its edges wherever the tile lands).
Status check_loaded_offset(const TileRef& t, const BufferInfo& b, const Expr& offset);

}  // namespace tegula::ir
