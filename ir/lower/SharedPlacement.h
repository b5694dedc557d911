/// \file
/// Everything a lowered kernel keeps in a block's shared memory, and where: its shared buffers
/// (every stage, forwarded tiles excepted), the completion barriers of the copies and gemms
/// that signal through shared memory, and the tensor-memory address slot. place_shared
/// (PlaceShared.cpp) records the placement, pipeline planning sizes stages by it, and the
/// lowered-form check refuses a placement that overlaps, misaligns or overflows; a backend
/// only reads the offsets (layout.offset, plan.barriers, lower.tmem_slot) and requests
/// lower.shared_bytes.
///
/// Placement is in program order, each region at its alignment (buffers at least 16 bytes,
/// barriers 8) from a base every backend aligns to 16 bytes. A kernel whose regions need more
/// (a 1024-byte swizzle atom) also asks for the slack the backend spends aligning the base at
/// run time, so lower.shared_bytes is exactly what a launch must request.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula {
struct TargetDescription;
}

namespace tegula::ir {

/// What a kernel may place in a block's shared memory on `target`: its shared memory per
/// block less what the instructions the kernel's gemms use keep for themselves
/// (MatrixInstruction::shared_reserve; the largest, since one block runs them in turn).
/// `reserved_by` gets the instruction that keeps the most, if any.
int64_t shared_limit(const Kernel& k, const TargetDescription& target, std::string* reserved_by = nullptr);

/// The alignment every backend gives the start of a block's shared memory.
constexpr int64_t kSharedBaseAlign = 16;
/// Bytes of one completion barrier (an mbarrier object).
constexpr int64_t kSharedBarrierBytes = 8;

struct SharedRegion {
  enum class Kind : uint8_t {
    Buffer,             ///< a shared alloc, all stages (layout.offset)
    Barriers,           ///< completion barriers of a bulk-copy pipeline or a tcgen05 gemm (plan.barriers)
    TensorMemorySlot,   ///< where tcgen05.alloc writes the tensor-memory address (lower.tmem_slot)
    OpaqueStaging,      ///< one matrix per subgroup through which opaque fragments' elements pass (lower.opaque_staging)
  };
  Kind kind = Kind::Buffer;
  const Stmt* stmt = nullptr;  ///< the alloc, loop or gemm; null for the slot
  int64_t bytes = 0;
  int64_t align = kSharedBaseAlign;
  int64_t count = 0;           ///< for Barriers: how many
};

/// The regions of a lowered kernel as its plans stand (stages, engines, gemm kinds, opaque
/// fragments of `target`'s subgroup-scope matrices), in placement order; a Verify error when
/// a plan it reads is malformed.
Result<std::vector<SharedRegion>> shared_regions(const Kernel& k, const TargetDescription& target);

struct SharedPlacement {
  std::vector<int64_t> offsets;  ///< one per region
  int64_t bytes = 0;             ///< what a launch requests: the regions and the base slack
};
SharedPlacement place_regions(const std::vector<SharedRegion>& regions);

/// `plan.barriers` of a loop or gemm: the offset of its first barrier; -1 when it has none.
Result<int64_t> barrier_offset(const Stmt& s);

/// Whether the statement signals completion through shared barriers, and how many:
/// a pipelined loop with bulk prefetches and more than one stage needs one per stage, a
/// tcgen05 gemm one for its commit. 0 otherwise.
Result<int64_t> barriers_needed(const Stmt& s);

/// The end of the placed regions (offsets as recorded): the first byte past all of them.
Result<int64_t> placed_end(const Kernel& k, const TargetDescription& target);

/// The lowered kernel's placement against its regions: every region placed (offsets
/// recorded), aligned, apart from the others and inside lower.shared_bytes; barriers, the
/// slot and the staging tile exactly where needed. Errors name the alloc or statement.
Status check_shared_placement(const Kernel& k, const TargetDescription& target);

}  // namespace tegula::ir
