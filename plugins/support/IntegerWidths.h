/// \file
/// Integers a backend can hold: for a backend whose generated code counts loops and computes
/// indices in fewer bits than the IR's 64 (Vulkan: i32), the checks that refuse a launch in
/// which a value could leave that range, instead of running a truncated loop count (2^32 + 1
/// iterations as 1, 2^62 as none) or an index that wrapped back inside a tensor, and
/// reporting success.
///
/// check_loop_counts: `for` and `pipelined` loops. The bounds are evaluated over intervals
/// from what the launch fixes: shape symbols and scalars are their values, bx/by/bz range over
/// the grid, an enclosing loop's variable over its bounds, a parallel loop's over its extent,
/// an element load over its dtype's values, and a float operand (cast to an integer) over the
/// integer dtype. Every value computed on the way to a bound (a product `M * N` that wraps
/// before a division brings it back counts too), both bounds and the trip count must lie
/// within the range, less a margin for the indices the generated loop computes past the last
/// iteration (the next one's prefetch). The check is conservative where it must be, with one
/// exception: a bound that is a tensor element is known only on the device, so it is not
/// ranged (an i32 element is an i32 value already); a loaded bound within the margin of the
/// i32 limits, or a loaded range of 2^31 iterations or more, is not caught. A bound computed
/// from elements (a sum of two, an element times a symbol) is counted over the dtypes' whole
/// ranges.
///
/// check_index_widths: the loops as above, and every integer the kernel computes from what
/// the launch fixes: element indices (`X[i * M + j]`), tile offsets, `if` conditions,
/// parallel extents and the integer arithmetic of map and store values over block, loop and
/// element indices (`idx(a)` ranges over the destination's extent along a). A value that
/// depends on a tensor element or a tile's values is not ranged (a paged kernel's
/// `Tbl[j] * B` would otherwise be refused at every launch; element values are the IR's
/// saturating integers, which backends compute as such): where such a value wraps, the
/// device's bounds test sees the wrapped index.
#pragma once

#include <array>
#include <cstdint>

#include "core/Status.h"
#include "ir/IR.h"
#include "plugins/abi/tegula_plugin.h"

namespace tegula::plugin {

/// How far from the edges of the counter's range a loop's bounds must stay: the generated
/// loops compute up to a few indices past the last iteration.
inline constexpr int64_t kLoopCountMargin = 16;

/// OK when every serial loop of `k` can be counted in a signed `bits`-bit integer (2 to 63)
/// for this launch (arguments as validate_launch accepted them, `grid` the blocks it
/// returned); else Unsupported, naming the loop's location, the bound and the range it
/// could take.
Status check_loop_counts(const ir::Kernel& k, const tg_launch_params& params, const std::array<uint32_t, 3>& grid,
                         int bits);

/// check_loop_counts, and every integer the kernel computes from the launch's values (see
/// above) within a signed `bits`-bit integer; else Unsupported, naming the statement's
/// location, the expression and the range it could take.
Status check_index_widths(const ir::Kernel& k, const tg_launch_params& params, const std::array<uint32_t, 3>& grid,
                          int bits);

}  // namespace tegula::plugin
