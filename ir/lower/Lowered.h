/// \file
/// The lowered form as typed records: what a backend reads instead of attribute strings.
/// Each record has one reader that checks the attributes it is made of (names, kinds,
/// ranges) and fails with the attribute's location; read_lowered() runs every reader over a
/// whole kernel (verify_lowered), so a backend that holds a kernel from it may take each
/// reader's success for granted. The attribute groups and their meaning are documented in
/// ir/lower/README.md; the fragment, gemm and shared-layout records live in Distribution.h,
/// GemmPlan.h and SharedLayout.h, forwarding in Forwarding.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"
#include "ir/lower/Distribution.h"

namespace tegula {
struct TargetDescription;
}

namespace tegula::ir {

/// One `lower.assume` entry: the launch guarantees that `symbol` is a multiple of `divisor`.
struct Assumption {
  std::string symbol;
  int64_t divisor = 1;
};

/// The kernel's `lower.*` attributes.
struct KernelPlan {
  std::string target;       ///< lower.target
  std::string target_hash;  ///< lower.target_hash
  int64_t subgroup = 0;     ///< lower.subgroup (0 when absent)
  std::vector<Assumption> assume;
  int64_t tensor_align = 0;  ///< lower.tensor_align in bytes; 0: no guarantee
  int64_t shared_bytes = 0;  ///< lower.shared_bytes
  int64_t raster = 0;        ///< lower.raster; 0 when the block order is not remapped
  int64_t tmem_slot = -1;    ///< lower.tmem_slot: shared byte offset of the tensor-memory address; -1: none
  int64_t opaque_staging = -1;  ///< lower.opaque_staging: shared byte offset of the opaque fragments' staging tile; -1: none
};
Result<KernelPlan> get_kernel_plan(const Kernel& k);

/// How the threads of a block share a copy, fill, map, atomic_add or parallel loop.
enum class ThreadPlanKind : uint8_t {
  None,      ///< no plan.kind (not lowered, or an op nested in a parallel loop)
  Free,      ///< plan.threads/values over the op's extent (or the loop's variables)
  Fragment,  ///< where fragment plan.layout lives: each thread its own slots
  Opaque,    ///< on an opaque (cooperative-matrix) fragment, as a whole
};
/// Which unit moves a prefetched copy (plan.engine): the asynchronous copy unit, the tensor
/// copy engine, or the threads themselves through registers one iteration ahead
/// (PlanRegisterPrefetch.cpp; the copy still stores into its tile where it stands).
enum class CopyEngine : uint8_t { None, Async, Bulk, Registers };
/// Which gemm operand a copy stages for a forwarded load (plan.forward).
enum class ForwardedOperand : uint8_t { None, A, B };

/// Which dimensions of one side of a tile op stay inside its tensor for every value the
/// tile's origin can take (ProveInBounds.cpp): one entry per dimension of a global side,
/// none for another side or when nothing was proven. Backends drop the bounds test of a
/// proven dimension.
struct InBounds {
  std::vector<bool> dims;

  bool at(size_t d) const { return d < dims.size() && dims[d]; }
  /// Every dimension: the whole tile needs no test.
  bool all() const {
    for (bool b : dims)
      if (!b) return false;
    return !dims.empty();
  }
  bool any() const {
    for (bool b : dims)
      if (b) return true;
    return false;
  }
  bool operator==(const InBounds&) const = default;
};

/// What the index ranges prove of every copy and atomic_add of `k` with a global side: its
/// source's and destination's InBounds (ProveInBounds.cpp). The pass records these; the
/// reader refuses a recorded claim they do not contain.
struct TileBounds {
  InBounds src, dst;
};
std::map<const Stmt*, TileBounds> in_bounds_facts(const Kernel& k);

/// The `plan.*` attributes of a copy-like op (copy, atomic_add, fill, map, parallel).
struct CopyPlan {
  ThreadPlanKind kind = ThreadPlanKind::None;
  std::string layout;       ///< the fragment, for Fragment and Opaque
  Distribution threads;     ///< for Free
  int64_t vec = 0;          ///< plan.vec; 0 when absent
  bool async = false;       ///< plan.async: issued ahead by a pipelined loop
  CopyEngine engine = CopyEngine::None;
  ForwardedOperand forward = ForwardedOperand::None;
  /// plan.inbounds=[[source dims], [destination dims]] (copy, atomic_add); bools.
  InBounds src_in, dst_in;

  /// The vector width to emit: plan.vec, at least 1.
  int64_t vector() const { return vec > 1 ? vec : 1; }
};
Result<CopyPlan> get_copy_plan(const Stmt& s);

enum class ReducePlanKind : uint8_t { Local, Tree, Shared };

/// A reduce's `plan.*` attributes (LowerReductions.cpp says how they run). Reductions share
/// their scratch buffer, so every backend publishes a reduce's partials between two
/// barriers: the one before the writes is what keeps them from overwriting the partials a
/// slower thread still reads for the reduce before.
struct ReducePlan {
  ReducePlanKind kind = ReducePlanKind::Local;
  Distribution exec;             ///< plan.threads/values: what each thread combines
  std::vector<int64_t> shuffle;  ///< xor offsets within a subgroup
  std::vector<int64_t> cross;    ///< xor offsets across subgroups, through the scratch
  std::string scratch;           ///< plan.scratch, empty when none
  int axis = 0;

  /// Whether the steps pass partials through the scratch buffer.
  bool uses_scratch() const { return kind == ReducePlanKind::Shared || !cross.empty(); }
  /// Partials per thread: one per combination of the value factors off the axis.
  int64_t partials() const;
  /// The partial that value slot `v` of `exec` feeds: its value digits off the axis, read
  /// mixed-radix (first factor fastest). Every backend numbers partials this way, so a
  /// thread and its xor partner agree on the scratch layout.
  int64_t partial_of(int64_t v) const;
};
Result<ReducePlan> get_reduce_plan(const Stmt& reduce);

/// A pipelined loop's plan: the stages it runs with (plan.stages, or the source's `stages`
/// where planning kept them) and the body statements issued ahead (plan.prefetch).
struct PipelinePlan {
  bool pipelined = false;  ///< plan.prefetch is present: planning pipelined this loop
  int64_t stages = 1;
  std::vector<int64_t> prefetch;
  /// plan.inflight: the body index of the gemm whose matrix instructions stay in flight while
  /// the next iteration starts (PlanMmaOverlap.cpp); -1 when every iteration waits for its own.
  int64_t inflight = -1;
};
Result<PipelinePlan> get_pipeline_plan(const Stmt& loop);

/// An opaque fragment (layout.opaque and its atom, groups and repeats).
struct OpaqueFragment {
  std::string inst;
  int64_t m = 0, n = 0, k = 0;
  int64_t gm = 1, gn = 1;
  int64_t rm = 1, rn = 1;
};
/// Whether an alloc holds an opaque fragment.
bool is_opaque(const Stmt& alloc);
/// Its record; Verify error when an attribute is missing or malformed.
Result<OpaqueFragment> get_opaque_fragment(const Stmt& alloc);

/// The whole lowered kernel against the contract: every dotted attribute is one the
/// lowering writes on that op, of its type (each reader above succeeds), and the plans fit
/// together (a named fragment or scratch exists and fits, prefetched statements are
/// asynchronous copies, forwarded tiles are used only by their copy and gemm). The error
/// names the attribute or statement.
Status verify_lowered(const Kernel& k);
/// And against the target it will run on: lowered for it (name and hash of its
/// description), with instructions from its catalogue and copy engines it has.
Status verify_lowered_for(const Kernel& k, const TargetDescription& target, const std::string& target_hash);

}  // namespace tegula::ir
