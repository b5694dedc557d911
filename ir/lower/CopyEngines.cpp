#include "ir/lower/CopyEngines.h"

#include <cmath>

namespace tegula::ir {
namespace {

Status no(const Stmt& copy, const std::string& why) { return error(ErrorCode::Unsupported, why, copy.loc); }

bool dst_at_origin(const Stmt& copy) {
  for (const Expr& o : copy.copy_dst().offsets)
    if (!const_int(o) || *const_int(o) != 0) return false;
  return true;
}

/// What both engines need: a global -> shared copy that converts nothing, into the whole
/// buffer from its origin.
Status common_rules(const Stmt& copy, const BufferMap& buffers) {
  if (copy.op != OpKind::Copy) return no(copy, "not a copy");
  auto src = buffers.find(copy.copy_src().buffer), dst = buffers.find(copy.copy_dst().buffer);
  if (src == buffers.end() || dst == buffers.end()) return no(copy, "an operand is not a kernel buffer");
  if (src->second.scope != Scope::Global || dst->second.scope != Scope::Shared) return no(copy, "not a global -> shared copy");
  if (src->second.dtype != dst->second.dtype) return no(copy, "the copy converts dtypes");
  if (dst->second.dtype == DType::E5M2) return no(copy, "e5m2 stores saturate infinities, which a copy engine does not");
  if (!dst_at_origin(copy)) return no(copy, "the copy writes at an offset into its shared buffer");
  return Status::ok();
}

/// The layouts the bulk engine writes: the inner box extent in bytes and the swizzle span.
Status bulk_layout(const Stmt& copy, const SharedLayout& l, int64_t cols, int64_t es, int64_t& box_cols, int64_t& swizzle_bytes) {
  if (l.pad) return no(copy, "the shared buffer pads its rows (layout.pad)");
  if (!l.block) {
    if (l.swizzle_bits) return no(copy, "a swizzled shared layout without column blocks");
    if ((cols * es) % 16 || cols > 256) return no(copy, "rows are not whole 16-byte units of at most 256 elements");
    box_cols = cols;
    swizzle_bytes = 0;
    return Status::ok();
  }
  int64_t span = l.block * es;
  bool plain16 = span == 16 && l.swizzle_bits == 0;
  bool swizzled = l.swizzle_base == 4 && l.swizzle_shift == 3 && l.swizzle_bits >= 1 && l.swizzle_bits <= 3 &&
                  span == (int64_t(16) << l.swizzle_bits);
  if (!plain16 && !swizzled) return no(copy, "the column blocks are not a 16-byte plain or 32/64/128-byte swizzled mode");
  if (cols % l.block) return no(copy, "the column blocks do not divide the tile");
  box_cols = l.block;
  swizzle_bytes = plain16 ? 0 : span;
  return Status::ok();
}

}  // namespace

Result<BulkBox> bulk_copy_box(const Stmt& copy, const BufferMap& buffers, const SharedLayout& dst) {
  TG_RETURN_IF_ERROR(common_rules(copy, buffers));
  const BufferInfo& src = buffers.find(copy.copy_src().buffer)->second;
  const BufferInfo& buf = buffers.find(copy.copy_dst().buffer)->second;
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, tile_op_extent(copy, buffers));
  // A rank-dropping view (a 2-D tile of one head of a 4-D tensor) is legal for the engine
  // (a box of 1 along the leading axes), but its tensor map and coordinates are not
  // written yet: such copies take cp.async, which computes every address itself.
  if (src.shape.size() > extent.size())
    return no(copy, "the source is a view of a " + std::to_string(src.shape.size()) +
                        "-D tensor (a rank-dropping tile); the engine's tensor maps are written for 2-D tensors only");
  if (src.shape.size() != 2 || extent.size() != 2) return no(copy, "the engine moves 2-D tiles of 2-D tensors");
  if (extent != buf.shape) return no(copy, "the copy fills only part of its shared buffer");
  int64_t es = int64_t(dtype_size(buf.dtype));
  double pad = stmt_attr_float(copy, "pad");
  BulkBox box;
  box.nan_fill = std::isnan(pad);
  if (pad != 0 && !box.nan_fill) return no(copy, "elements past the tensor read as pad, and the engine fills only 0 or NaN");
  if (box.nan_fill && !(dtype_is_float(buf.dtype) && es >= 2)) return no(copy, "a NaN fill needs a floating-point dtype of 2 bytes or more");
  if (extent[0] > 256) return no(copy, "more than 256 rows");
  // The engine needs the tensor's rows on 16-byte boundaries; thread mapping vectorised
  // the copy to 16 bytes only where the shape assumptions prove that.
  if (stmt_attr_int(copy, "plan.vec") * es < 16) return no(copy, "the tensor's rows are not known to start on 16-byte boundaries");
  TG_RETURN_IF_ERROR(bulk_layout(copy, dst, extent[1], es, box.cols, box.swizzle_bytes));
  box.rows = extent[0];
  box.boxes = extent[1] / box.cols;
  if (dst.align % kBulkCopyAlign) return no(copy, "the shared buffer is not 128-byte aligned");
  if ((box.rows * box.cols * es) % kBulkCopyAlign) return no(copy, "a box is not a whole number of 128-byte units");
  box.bytes = box.boxes * box.rows * box.cols * es;
  return box;
}

Status async_copy_fits(const Stmt& copy, const BufferMap& buffers, const SharedLayout& dst, const Distribution& plan, int64_t vec,
                       int64_t threads) {
  TG_RETURN_IF_ERROR(common_rules(copy, buffers));
  const BufferInfo& buf = buffers.find(copy.copy_dst().buffer)->second;
  int64_t bytes = vec * int64_t(dtype_size(buf.dtype));
  if (bytes != 4 && bytes != 8 && bytes != 16) return no(copy, "vectors of " + std::to_string(bytes) + " bytes (the unit moves 4, 8 or 16)");
  if (!shared_vectors_contiguous(dst, buf.shape, buf.dtype, plan, {}, vec, threads))
    return no(copy, "a thread's vectors are not contiguous and aligned in the shared layout");
  return Status::ok();
}

}  // namespace tegula::ir
