#include "ir/TileRules.h"

#include <algorithm>
#include <optional>
#include <string>

namespace tegula::ir {
namespace {

Status fail(const SourceLoc& loc, std::string msg) { return error(ErrorCode::Verify, std::move(msg), loc); }

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + (shape[i] < 0 ? std::string("?") : std::to_string(shape[i]));
  return s + "]";
}

/// The tile's rank against its buffer's: equal, or lower for a global tensor named with
/// one offset per axis (a rank-dropping view). Only a global tile may drop axes: a shared
/// or fragment tile of another rank would need a layout per view, and nothing needs it.
Status check_tile_rank(const TileRef& t, const BufferInfo& b, const std::vector<int64_t>& tile) {
  size_t rank = b.shape.size();
  if (tile.size() == rank) return Status::ok();
  if (tile.size() > rank)
    return fail(t.loc, "tile of rank " + std::to_string(tile.size()) + " " + shape_str(tile) + " does not fit '" +
                           t.buffer + "' of rank " + std::to_string(rank));
  if (b.scope != Scope::Global)
    return fail(t.loc, std::string(scope_name(b.scope)) + " tile '" + t.buffer + "' " + shape_str(b.shape) +
                           " has rank " + std::to_string(rank) + " and the op's tile " + shape_str(tile) + " rank " +
                           std::to_string(tile.size()) +
                           ": only a global tensor can be read or written as a tile of lower rank (a view)");
  if (t.offsets.empty())
    return fail(t.loc, "tensor '" + t.buffer + "' has rank " + std::to_string(rank) + " and the tile " +
                           shape_str(tile) + " rank " + std::to_string(tile.size()) + ": give all " +
                           std::to_string(rank) + " offsets, one index for each leading axis");
  return Status::ok();
}

}  // namespace

/// The tile [offset, offset + extent) must start inside a global tensor (it may overhang
/// the far edge: that part is masked) and lie wholly inside any other buffer.
Status check_tile_bounds(const TileRef& t, const BufferInfo& b, const std::vector<int64_t>& tile) {
  TG_RETURN_IF_ERROR(check_tile_rank(t, b, tile));
  // A rank-dropping global tile: extent 1 along the leading axes (ir/OpList.h, copy).
  std::vector<int64_t> extent(leading_axes(b.shape.size(), tile.size()), 1);
  extent.insert(extent.end(), tile.begin(), tile.end());
  for (size_t i = 0; i < extent.size(); ++i) {
    if (extent[i] < 1) return fail(t.loc, "tile extent must be positive, found " + shape_str(tile));
    std::optional<int64_t> off = t.offsets.empty() ? std::optional<int64_t>(0) : const_int(t.offsets[i]);
    if (b.scope == Scope::Global) {
      if (!off) continue;
      if (*off < 0 || (b.shape[i] > 0 && *off >= b.shape[i]))
        return fail(t.offsets.empty() ? t.loc : t.offsets[i]->loc,
                    "tile offset " + std::to_string(*off) + " is outside tensor '" + t.buffer + "' (dimension " +
                        std::to_string(i) + " has size " + std::to_string(b.shape[i]) + ")");
      continue;
    }
    if (extent[i] > b.shape[i])
      return fail(t.loc, "tile " + shape_str(extent) + " does not fit in '" + t.buffer + "' " + shape_str(b.shape));
    if (!off) continue;
    if (*off < 0 || *off + extent[i] > b.shape[i])
      return fail(t.offsets[i]->loc, "tile " + shape_str(extent) + " at offset " + std::to_string(*off) +
                                         " in dimension " + std::to_string(i) + " is outside '" + t.buffer + "' " +
                                         shape_str(b.shape));
  }
  return Status::ok();
}

/// An explicit extent longer than the tile: the leading entries are the single-index
/// axes of a view and must be 1 (tile_op_extent dropped the ones that are).
Status check_extent_attr(const Stmt& s, const std::vector<const BufferInfo*>& bufs) {
  const Attr* a = find_attr(s.attrs, "extent");
  if (!a) return Status::ok();
  std::vector<int64_t> given = stmt_attr_ints(s, "extent");
  size_t lowest = given.size();
  for (const BufferInfo* b : bufs) lowest = std::min(lowest, b->shape.size());
  for (size_t i = 0; i + lowest < given.size(); ++i)
    if (given[i] != 1)
      return fail(a->loc, "extent " + shape_str(given) + " has " + std::to_string(given.size()) +
                              " entries and the op's lowest-rank operand " + std::to_string(lowest) +
                              " axes: entry " + std::to_string(i) + " is " + std::to_string(given[i]) +
                              ", and a leading axis of a view holds one index (extent 1)");
  return Status::ok();
}

}  // namespace tegula::ir
