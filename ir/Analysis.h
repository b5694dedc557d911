/// \file
/// Facts about a kernel that the verifier, the interpreter and the lowering passes share:
/// what a buffer name refers to, and the extent of a tile op.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula::ir {

/// A buffer as the tile ops see it. Global shapes hold -1 for symbolic dimensions.
struct BufferInfo {
  Scope scope = Scope::Global;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  SourceLoc loc;
};

using BufferMap = std::map<std::string, BufferInfo, std::less<>>;

/// Visit every statement, nested ones included, in program order.
void for_each_stmt(Block& b, const std::function<void(Stmt&)>& fn);
void for_each_stmt(const Block& b, const std::function<void(const Stmt&)>& fn);

/// Tensor parameters and the allocs at the top of the kernel body (shared and fragment).
BufferMap kernel_buffers(const Kernel& k);

/// The extent of the tile that a copy, fill or atomic_add moves: the `extent` attribute if
/// given, else the shape of a non-global operand written without offsets (the destination
/// first). Errors name the statement. An `extent` attribute with more entries than the
/// op's lowest-rank operand has is returned without those leading entries when they are 1
/// (`extent=[1, 1, 64, 128]` beside a [64, 128] tile is that tile), so every non-global
/// operand has exactly the extent's rank and only a global operand may have more.
Result<std::vector<int64_t>> tile_op_extent(const Stmt& s, const BufferMap& buffers);

/// Rank-dropping views (ir/OpList.h, copy): a global tile of a tile op whose tensor has
/// more axes than the op's extent aligns the extent to the tensor's trailing axes; each of
/// the leading axes holds one index, the tile's offset there (extent 1). The number of
/// those leading axes for a buffer of rank `buffer_rank` under an extent of `extent_rank`
/// entries: 0 for an ordinary tile. Every consumer (the interpreter, lowering, backends)
/// reads the view through this one rule.
inline size_t leading_axes(size_t buffer_rank, size_t extent_rank) {
  return buffer_rank > extent_rank ? buffer_rank - extent_rank : 0;
}

}  // namespace tegula::ir

namespace tegula::ir {

/// Read and write sets, all derived from the op list's roles (ir/OpList.h): no op is
/// listed here by hand, so a new op gets its sets from its line in the list.

/// One buffer access by a statement itself (not by its nested blocks).
struct BufferAccess {
  const std::string& buffer;
  Access access;
  const TileRef* operand;  ///< the %tile or %elem operand; nullptr for a read in an expression or a tile offset
};

/// Calls `fn` for every buffer access of the statement itself: each tile operand with its
/// role (operand_access), then each buffer that an expression or a tile offset names (a
/// read), once per mention.
void for_each_access(const Stmt& s, const std::function<void(const BufferAccess&)>& fn);

/// Every buffer a statement, or a statement nested in it, writes.
std::set<std::string> written_buffers(const Stmt& s);
/// Every buffer a statement of the block writes, at any depth.
std::set<std::string> written_buffers(const Block& b);
/// Every buffer a statement, or a statement nested in it, reads (operands whose role reads,
/// gemm's C with accumulate=true and reduce's destination with clear=false among them, and
/// every buffer its expressions and offsets name).
std::set<std::string> read_buffers(const Stmt& s);

/// Indices of the tensor parameters the kernel writes: its outputs.
std::vector<size_t> written_params(const Kernel& k);

/// The buffers a block reads element by element (`X[i, j]` in an expression or a tile
/// offset), at any depth: what a parallel loop needs readable from every thread.
std::set<std::string> element_loads(const Block& b);

/// How the kernel's stores round to narrow floats: its `saturate` attribute (core/DType.h's
/// rules; saturating unless the kernel says saturate=false).
Fp8Mode store_mode(const Kernel& k);

/// Whether `pred` holds for `e` or any expression below it.
bool any_node(const Expr& e, const std::function<bool(const Expr&)>& pred);

}  // namespace tegula::ir
