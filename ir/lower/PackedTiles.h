/// \file
/// When a shared tile may be stored as an array of 16-byte words (PackSharedTiles.cpp says
/// what that buys and why the rules are these), shared by the pass that decides it
/// (`layout.words=16` on the alloc, read by packed_word_bytes), by the lowered-form check that
/// refuses a forged one and by a backend that emits the words, so the three cannot disagree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "ir/IR.h"
#include "ir/lower/Distribution.h"

namespace tegula {
struct TargetDescription;
}

namespace tegula::ir {

/// The bytes of one word of a packed tile.
constexpr int64_t kPackedWordBytes = 16;

/// `layout.words` of a shared alloc: kPackedWordBytes when the tile is stored as 16-byte words,
/// 0 when as elements; a Verify error, at the attribute, for anything else.
Result<int64_t> packed_word_bytes(const Stmt& alloc);

/// Whether a copy from a global tensor (`src_dtype`, `src_shape` with -1 for a symbolic
/// dimension) into a shared tile of `dst_dtype`, run by `threads` over a tile of `extent`
/// with the copy's vector width, moves whole 16-byte words into word-aligned positions:
/// 2-D, one dtype, each thread's vectors 16 bytes along the last dimension, rows of the
/// tensor a whole number of vectors, and the destination column starting on a word.
bool copies_whole_words(const Stmt& copy, const Distribution& threads, const std::vector<int64_t>& extent,
                        DType src_dtype, const std::vector<int64_t>& src_shape, DType dst_dtype);

/// Why shared tile `alloc` of kernel `k` cannot be stored as 16-byte words on `target`;
/// empty when it can.
std::string packing_refusal(const Kernel& k, const Stmt& alloc, const TargetDescription& target);

}  // namespace tegula::ir
