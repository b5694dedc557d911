/// \file
/// The physical layout of a shared buffer, as lowering records it (`layout.*` attributes on
/// the alloc) and as every backend and the interpreter compute addresses from it:
///
///   rows = product of all but the last dimension, cols = the last dimension, (i, j) the
///   flattened row and the column of an element;
///   element offset = i * (cols + pad) + j                       without blocking, or
///                    (j / block) * (rows * block) + i * block + (j % block)   with it;
///   byte offset    = element offset * element size, then the XOR swizzle
///                    b ^= ((b >> (base + shift)) & (2^bits - 1)) << base.
///
/// Blocking stores the tile as column blocks of `block` elements (the shape matrix
/// descriptors want: 8 rows x 128 bytes atoms); padding skews rows across banks; the swizzle
/// is the one the copy engine and wgmma/tcgen05 descriptors encode (bits 3, base 4, shift 3 is
/// the 128-byte mode). `stages` copies of the buffer sit one after another for pipelining.
#pragma once

#include <cstdint>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "ir/IR.h"
#include "ir/lower/Distribution.h"

namespace tegula::ir {

struct SharedLayout {
  int64_t block = 0;
  int64_t pad = 0;
  int64_t swizzle_bits = 0;
  int64_t swizzle_base = 0;
  int64_t swizzle_shift = 0;
  int64_t align = 16;
  int64_t stages = 1;
  /// layout.offset: where place_shared (PlaceShared.cpp) put the buffer's first stage, in
  /// bytes from the start of the block's shared memory; -1 before placement.
  int64_t offset = -1;
  bool operator==(const SharedLayout&) const = default;
};

void set_shared_layout(std::vector<Attr>& attrs, const SharedLayout& l);
/// The layout an alloc's attributes describe (the default, plain row-major, when absent).
Result<SharedLayout> get_shared_layout(const std::vector<Attr>& attrs);

/// Byte offset of an element within one stage.
int64_t shared_offset(const SharedLayout& l, const std::vector<int64_t>& shape, DType dtype,
                      const std::vector<int64_t>& coords);
/// Bytes one stage occupies, rounded up to the alignment.
int64_t shared_stage_bytes(const SharedLayout& l, const std::vector<int64_t>& shape, DType dtype);
/// Checks that no two elements share bytes and that blocking divides the columns.
Status check_shared_layout(const SharedLayout& l, const std::vector<int64_t>& shape, DType dtype);

/// Whether every thread of a plan over a tile of `extent` at `origin` in a shared buffer can
/// move its elements `n` at a time as single aligned accesses of n * element-size bytes (a
/// power of two up to 16): each group of n consecutive slots along the last dimension lands
/// on n consecutive, n-aligned elements of the layout, swizzle included. Groups entirely past
/// the buffer's shape are skipped (they are masked); a group that runs past it is refused.
bool shared_vectors_contiguous(const SharedLayout& l, const std::vector<int64_t>& shape, DType dtype, const Distribution& plan,
                               const std::vector<int64_t>& origin, int64_t n, int64_t threads);

}  // namespace tegula::ir
