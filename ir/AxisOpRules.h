/// \file
/// The verifier's rules for the ops along an axis (ir/OpList.h has the semantics and the why).
/// reduce: shared or fragment tiles, not bool, the destination the source with the axis kept
/// as 1 or removed. scan: source, destination and carry are shared float tiles, the
/// destination has the source's shape, the carry one start value per line along the axis,
/// and the op is sum, max or min. Kept beside the verifier, which looks the buffers up and
/// calls these.
#pragma once

#include "core/Status.h"
#include "ir/Analysis.h"
#include "ir/IR.h"

namespace tegula::ir {

/// `s` is a reduce whose source and destination are `src` and `dst`.
Status check_reduce_operands(const Stmt& s, const BufferInfo& src, const BufferInfo& dst);

/// `s` is a scan whose source, destination and carry are `src`, `dst` and `carry`.
Status check_scan_operands(const Stmt& s, const BufferInfo& src, const BufferInfo& dst, const BufferInfo& carry);

}  // namespace tegula::ir
