/// \file
/// Writes to global memory that two blocks of one launch may make to the same element: a
/// data race between blocks, which no barrier can order and which gives a different result
/// from run to run (or from device to device). The reference interpreter runs blocks one
/// after another, so such a kernel can pass every comparison and still be wrong on a GPU;
/// `tegula check` reports what this analysis finds.
///
/// The analysis proves writes apart, it does not search for a colliding pair: for every
/// grid axis that can have more than one block (bx, by, bz), some dimension of the tensor
/// must keep the tiles of different block indices apart. A write's offset along that
/// dimension must be `s * b + r`, with the same stride `s` for every write to the tensor, no
/// other block index in it, and the rest `r` (loop variables, constants) inside
/// `[0, s - extent]` over the ranges of its variables. What it cannot prove apart is
/// reported, so a report means "may race", and atomic_add, whose writes are meant to meet,
/// is never reported. An offset that depends on a tensor value (a block-level load, or a
/// loop variable whose bounds read one: a paged table, segment offsets) has no range, so
/// it is never proven apart, and the report names the value.
#pragma once

#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula::ir {

/// One tensor that blocks along one grid axis may write in the same place.
struct BlockRace {
  SourceLoc loc;        ///< the first write to the tensor that is not proven apart
  std::string tensor;   ///< the tensor parameter
  std::string axis;     ///< "bx", "by" or "bz"
  std::string message;  ///< what the write is and why it is not proven apart
};

/// Every (tensor, grid axis) whose writes are not proven apart, in parameter order.
std::vector<BlockRace> find_block_races(const Kernel& k);

}  // namespace tegula::ir
