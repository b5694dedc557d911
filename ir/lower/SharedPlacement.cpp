#include "ir/lower/SharedPlacement.h"

#include <algorithm>
#include <map>

#include "ir/lower/Context.h"
#include "ir/lower/Forwarding.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "targets/Target.h"

namespace tegula::ir {
namespace {

Status fail(const SourceLoc& loc, const std::string& msg) { return error(ErrorCode::Verify, msg, loc); }

int64_t round_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

std::string describe(const SharedRegion& r) {
  switch (r.kind) {
    case SharedRegion::Kind::Buffer: return "shared buffer '" + r.stmt->name + "'";
    case SharedRegion::Kind::Barriers: return std::string("the completion barriers of the ") + op_info(r.stmt->op).keyword + " at " + where(*r.stmt);
    case SharedRegion::Kind::TensorMemorySlot: return "the tensor-memory address slot (lower.tmem_slot)";
    case SharedRegion::Kind::OpaqueStaging: return "the opaque fragments' staging tile (lower.opaque_staging)";
  }
  return "";
}

}  // namespace

int64_t shared_limit(const Kernel& k, const TargetDescription& target, std::string* reserved_by) {
  int64_t reserve = 0;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (s.op != OpKind::Gemm) return;
    auto p = get_gemm_plan(s);
    const MatrixInstruction* mi = p.is_ok() ? target.find_instruction(p->inst) : nullptr;
    if (!mi || mi->shared_reserve <= reserve) return;
    reserve = mi->shared_reserve;
    if (reserved_by) *reserved_by = mi->id;
  });
  // A description whose reserve exceeds the whole budget leaves nothing, never less.
  return std::max<int64_t>(0, target.shared_memory_per_block - reserve);
}

Result<int64_t> barrier_offset(const Stmt& s) {
  const Attr* a = find_attr(s.attrs, "plan.barriers");
  if (!a) return int64_t(-1);
  if (a->value.kind != AttrValue::Kind::Int || a->value.i < 0 || a->value.i > (int64_t(1) << 40))
    return fail(a->loc, "'plan.barriers' must be a byte offset (an integer >= 0)");
  return a->value.i;
}

Result<int64_t> barriers_needed(const Stmt& s) {
  if (s.op == OpKind::Gemm) {
    TG_ASSIGN_OR_RETURN(GemmPlan p, get_gemm_plan(s));
    return int64_t(p.kind == InstructionKind::Tcgen05 ? 1 : 0);
  }
  if (s.op != OpKind::Pipelined) return int64_t(0);
  TG_ASSIGN_OR_RETURN(PipelinePlan p, get_pipeline_plan(s));
  if (!p.pipelined || p.stages <= 1) return int64_t(0);
  for (int64_t i : p.prefetch) {
    TG_ASSIGN_OR_RETURN(CopyPlan c, get_copy_plan(s.body().stmts[size_t(i)]));
    if (c.engine == CopyEngine::Bulk) return p.stages;
  }
  return int64_t(0);
}

/// Opaque fragments of subgroup-scope matrices reach their elements through one staging
/// matrix per subgroup (the backend stores a matrix there and reads it element-wise); the
/// largest matrix any of them uses, in its accumulator dtype. 0 without such fragments.
static Result<int64_t> opaque_staging_bytes(const Kernel& k, const TargetDescription& target) {
  int64_t bytes = 0;
  int64_t subgroups = target.subgroup_width > 0 ? k.threads / target.subgroup_width : 0;
  for (const Stmt& s : k.body.stmts) {
    if (!is_opaque(s)) continue;
    TG_ASSIGN_OR_RETURN(OpaqueFragment f, get_opaque_fragment(s));
    const MatrixInstruction* mi = target.find_instruction(f.inst);
    if (!mi || mi->scope == GroupScope::Cta || mi->c_types.empty()) continue;
    bytes = std::max(bytes, f.m * f.n * int64_t(dtype_size(mi->c_types.front())) * subgroups);
  }
  return bytes;
}

Result<std::vector<SharedRegion>> shared_regions(const Kernel& k, const TargetDescription& target) {
  std::vector<SharedRegion> out;
  for (const Stmt& s : k.body.stmts) {
    if (s.op != OpKind::Alloc || s.type.scope != Scope::Shared || is_forwarded(s)) continue;
    TG_ASSIGN_OR_RETURN(SharedLayout l, get_shared_layout(s.attrs));
    SharedRegion r;
    r.stmt = &s;
    r.bytes = shared_stage_bytes(l, s.type.shape, s.type.dtype) * l.stages;
    r.align = std::max(kSharedBaseAlign, l.align);
    out.push_back(r);
  }
  bool tensor_memory = false;
  Status st;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (!st.is_ok()) return;
    auto n = barriers_needed(s);
    if (!n.is_ok()) {
      st = n.status();
      return;
    }
    if (*n == 0) return;
    tensor_memory = tensor_memory || s.op == OpKind::Gemm;
    SharedRegion r;
    r.kind = SharedRegion::Kind::Barriers;
    r.stmt = &s;
    r.count = *n;
    r.bytes = *n * kSharedBarrierBytes;
    r.align = kSharedBarrierBytes;
    out.push_back(r);
  });
  TG_RETURN_IF_ERROR(st);
  if (tensor_memory) {
    SharedRegion r;
    r.kind = SharedRegion::Kind::TensorMemorySlot;
    r.bytes = kSharedBarrierBytes;
    r.align = kSharedBarrierBytes;
    out.push_back(r);
  }
  TG_ASSIGN_OR_RETURN(int64_t staging, opaque_staging_bytes(k, target));
  if (staging > 0) {
    SharedRegion r;
    r.kind = SharedRegion::Kind::OpaqueStaging;
    r.bytes = staging;
    r.align = kSharedBaseAlign;
    out.push_back(r);
  }
  return out;
}

SharedPlacement place_regions(const std::vector<SharedRegion>& regions) {
  SharedPlacement p;
  int64_t end = 0, max_align = kSharedBaseAlign;
  for (const SharedRegion& r : regions) {
    end = round_up(end, r.align);
    p.offsets.push_back(end);
    end += r.bytes;
    max_align = std::max(max_align, r.align);
  }
  p.bytes = end > 0 ? end + (max_align - kSharedBaseAlign) : 0;
  return p;
}

/// Where a region was placed (its recorded offset), -1 when it was not.
static Result<int64_t> recorded_offset(const SharedRegion& r, const KernelPlan& plan) {
  switch (r.kind) {
    case SharedRegion::Kind::Buffer: {
      TG_ASSIGN_OR_RETURN(SharedLayout l, get_shared_layout(r.stmt->attrs));
      return l.offset;
    }
    case SharedRegion::Kind::Barriers: return barrier_offset(*r.stmt);
    case SharedRegion::Kind::TensorMemorySlot: return plan.tmem_slot;
    case SharedRegion::Kind::OpaqueStaging: return plan.opaque_staging;
  }
  return int64_t(-1);
}

Result<int64_t> placed_end(const Kernel& k, const TargetDescription& target) {
  TG_ASSIGN_OR_RETURN(std::vector<SharedRegion> regions, shared_regions(k, target));
  TG_ASSIGN_OR_RETURN(KernelPlan plan, get_kernel_plan(k));
  int64_t end = 0;
  for (const SharedRegion& r : regions) {
    TG_ASSIGN_OR_RETURN(int64_t offset, recorded_offset(r, plan));
    end = std::max(end, offset + r.bytes);
  }
  return end;
}

Status check_shared_placement(const Kernel& k, const TargetDescription& target) {
  TG_ASSIGN_OR_RETURN(std::vector<SharedRegion> regions, shared_regions(k, target));
  TG_ASSIGN_OR_RETURN(KernelPlan plan, get_kernel_plan(k));
  std::map<int64_t, const SharedRegion*> by_offset;
  std::map<const Stmt*, bool> barriers_expected;
  int64_t end = 0, max_align = kSharedBaseAlign;
  for (const SharedRegion& r : regions) {
    SourceLoc loc = r.stmt ? r.stmt->loc : k.loc;
    TG_ASSIGN_OR_RETURN(int64_t offset, recorded_offset(r, plan));
    if (r.kind == SharedRegion::Kind::Barriers) barriers_expected[r.stmt] = true;
    if (offset < 0) return fail(loc, describe(r) + " has no place in shared memory (place_shared did not run?)");
    if (offset % r.align) return fail(loc, describe(r) + " at byte " + std::to_string(offset) + " is not " + std::to_string(r.align) + "-byte aligned");
    if (by_offset.count(offset) && by_offset.at(offset)->bytes > 0 && r.bytes > 0)
      return fail(loc, describe(r) + " and " + describe(*by_offset.at(offset)) + " overlap at byte " + std::to_string(offset));
    by_offset[offset] = &r;
    end = std::max(end, offset + r.bytes);
    max_align = std::max(max_align, r.align);
  }
  // Neighbours in address order must not overlap.
  const SharedRegion* prev = nullptr;
  int64_t prev_end = 0;
  for (const auto& [offset, r] : by_offset) {
    if (prev && offset < prev_end)
      return fail(r->stmt ? r->stmt->loc : k.loc, describe(*r) + " at byte " + std::to_string(offset) + " overlaps " + describe(*prev) +
                                                      " (which ends at byte " + std::to_string(prev_end) + ")");
    prev = r;
    prev_end = offset + r->bytes;
  }
  int64_t need = end > 0 ? end + (max_align - kSharedBaseAlign) : 0;
  if (plan.shared_bytes < need)
    return fail(k.loc, "lower.shared_bytes = " + std::to_string(plan.shared_bytes) + " does not hold the placed regions (" +
                           std::to_string(need) + " bytes with the base alignment)");
  Status st;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (!st.is_ok() || barriers_expected.count(&s) || !find_attr(s.attrs, "plan.barriers")) return;
    st = fail(find_attr(s.attrs, "plan.barriers")->loc, "plan.barriers on a statement that signals through no shared barriers");
  });
  TG_RETURN_IF_ERROR(st);
  bool slot = false, staging = false;
  for (const SharedRegion& r : regions) {
    slot = slot || r.kind == SharedRegion::Kind::TensorMemorySlot;
    staging = staging || r.kind == SharedRegion::Kind::OpaqueStaging;
  }
  if (!slot && plan.tmem_slot >= 0) return fail(find_attr(k.attrs, "lower.tmem_slot")->loc, "lower.tmem_slot without a tcgen05 gemm");
  if (!staging && plan.opaque_staging >= 0)
    return fail(find_attr(k.attrs, "lower.opaque_staging")->loc, "lower.opaque_staging without an opaque fragment of a subgroup-scope matrix");
  return Status::ok();
}

}  // namespace tegula::ir
