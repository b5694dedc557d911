// The lowered-form check that read_lowered() runs before any backend sees a kernel
// (Lowered.h): every annotation is one lowering writes on that op and reads back through its
// typed reader, the plans fit together, and, given the target, the kernel was lowered for
// that very description and asks only for what it has. Lowered text is a file a plugin is
// handed (the compile cache, an offline tool, a user); what was forged or corrupted is refused
// here, once, with the location of the attribute or statement, instead of in each backend.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "ir/Analysis.h"
#include "ir/lower/BufferUses.h"
#include "ir/lower/Context.h"
#include "ir/lower/CopyEngines.h"
#include "ir/lower/Forwarding.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/MmaOverlap.h"
#include "ir/lower/PackedTiles.h"
#include "ir/lower/RegisterPrefetch.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/SharedPlacement.h"
#include "targets/Target.h"

namespace tegula::ir {
namespace {

Status fail(const SourceLoc& loc, const std::string& msg) { return error(ErrorCode::Verify, msg, loc); }

constexpr const char* kKernelAttrs[] = {"lower.target", "lower.target_hash", "lower.subgroup", "lower.assume",
                                        "lower.tensor_align", "lower.shared_bytes", "lower.raster", "lower.tmem_slot",
                                        "lower.opaque_staging"};
constexpr const char* kSharedAllocAttrs[] = {"layout.block",  "layout.pad",    "layout.swizzle",   "layout.align",
                                             "layout.stages", "layout.offset", "layout.forwarded", "layout.words"};
constexpr const char* kFragmentAllocAttrs[] = {"layout.threads", "layout.values", "layout.opaque", "layout.atom", "layout.groups",
                                               "layout.repeat"};
constexpr const char* kThreadPlanAttrs[] = {"plan.kind", "plan.layout", "plan.vec", "plan.threads", "plan.values"};
constexpr const char* kCopyAttrs[] = {"plan.async", "plan.engine", "plan.forward"};
constexpr const char* kReduceAttrs[] = {"plan.kind", "plan.threads", "plan.values", "plan.shuffle", "plan.cross", "plan.scratch"};
constexpr const char* kPipelineAttrs[] = {"plan.prefetch", "plan.stages", "plan.barriers", "plan.inflight"};
constexpr const char* kGemmAttrs[] = {"mma.inst", "mma.kind", "mma.atom", "mma.groups", "mma.repeat", "mma.group_threads",
                                      "mma.a", "mma.b", "mma.padded", "plan.barriers"};

template <size_t N>
bool listed(const char* const (&names)[N], const std::string& name) {
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

/// Whether lowering writes annotation `name` on a statement like `s`.
bool known_on(const Stmt& s, const std::string& name) {
  switch (s.op) {
    case OpKind::Alloc:
      if (s.type.scope == Scope::Shared) return listed(kSharedAllocAttrs, name);
      if (s.type.scope == Scope::Fragment) return listed(kFragmentAllocAttrs, name);
      return false;
    case OpKind::Copy:
    case OpKind::AtomicAdd:
      return listed(kThreadPlanAttrs, name) || name == "plan.inbounds" || (s.op == OpKind::Copy && listed(kCopyAttrs, name));
    case OpKind::Fill:
    case OpKind::Map:
    case OpKind::Parallel:
    case OpKind::Scan: return listed(kThreadPlanAttrs, name);
    case OpKind::Reduce: return listed(kReduceAttrs, name);
    case OpKind::Pipelined: return listed(kPipelineAttrs, name);
    case OpKind::Gemm: return listed(kGemmAttrs, name);
    case OpKind::Store:
    case OpKind::Barrier:
    case OpKind::For:
    case OpKind::If: return false;
  }
  return false;
}


class LoweredChecker {
public:
  explicit LoweredChecker(const Kernel& k) : k_(k) {
    for_each_stmt(k_.body, [&](const Stmt& s) {
      if (s.op == OpKind::Alloc) allocs_[s.name] = &s;
    });
  }

  Status run() {
    for (const Attr& a : k_.attrs)
      if (a.name.find('.') != std::string::npos && !listed(kKernelAttrs, a.name))
        return fail(a.loc, "unknown kernel annotation '" + a.name + "'");
    TG_RETURN_IF_ERROR(get_kernel_plan(k_).status());
    Status st;
    for_each_stmt(k_.body, [&](const Stmt& s) {
      if (st.is_ok()) st = check_stmt(s);
    });
    TG_RETURN_IF_ERROR(st);
    TG_RETURN_IF_ERROR(check_register_copies_listed());
    TG_RETURN_IF_ERROR(check_fragment_reads());
    return check_forwarded_uses();
  }

private:
  Status check_stmt(const Stmt& s) {
    bool lowered = false;
    for (const Attr& a : s.attrs) {
      if (a.name.find('.') == std::string::npos) continue;
      if (!known_on(s, a.name)) return fail(a.loc, "'" + a.name + "' is no annotation of " + describe(s));
      lowered = true;
    }
    if (!lowered) return Status::ok();
    switch (s.op) {
      case OpKind::Alloc: return check_alloc(s);
      case OpKind::Copy:
      case OpKind::AtomicAdd:
      case OpKind::Fill:
      case OpKind::Map:
      case OpKind::Parallel: return check_thread_plan(s);
      case OpKind::Reduce: return check_reduce(s);
      case OpKind::Scan: return check_scan(s);
      case OpKind::Pipelined: return check_pipeline(s);
      case OpKind::Gemm: return get_gemm_plan(s).status();
      case OpKind::Store:
      case OpKind::Barrier:
      case OpKind::For:
      case OpKind::If: return Status::ok();
    }
    return Status::ok();
  }

  static std::string describe(const Stmt& s) {
    if (s.op == OpKind::Alloc) return std::string("a ") + scope_name(s.type.scope) + " alloc";
    return std::string("a ") + op_info(s.op).keyword;
  }

  const Stmt* alloc(const std::string& name) const {
    auto it = allocs_.find(name);
    return it == allocs_.end() ? nullptr : it->second;
  }

  Status check_alloc(const Stmt& s) {
    if (s.type.scope == Scope::Shared) {
      TG_RETURN_IF_ERROR(packed_word_bytes(s).status());
      return get_shared_layout(s.attrs).status();
    }
    if (is_opaque(s)) {
      if (find_attr(s.attrs, "layout.threads") || find_attr(s.attrs, "layout.values"))
        return fail(s.loc, "fragment '" + s.name + "' is opaque (layout.opaque) and cannot also have a distribution");
      return get_opaque_fragment(s).status();
    }
    auto d = get_distribution(s.attrs, "layout");
    if (!d.is_ok()) return fail(s.loc, "fragment '" + s.name + "': " + d.status().message());
    if (d->thread_count() != k_.threads)
      return fail(s.loc, "fragment '" + s.name + "' is spread over " + std::to_string(d->thread_count()) + " threads; the block has " +
                             std::to_string(k_.threads));
    return Status::ok();
  }

  Status check_thread_plan(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(CopyPlan p, get_copy_plan(s));
    if (p.kind == ThreadPlanKind::Free && p.threads.thread_count() != k_.threads)
      return fail(s.loc, "plan over " + std::to_string(p.threads.thread_count()) + " threads; the block has " + std::to_string(k_.threads));
    if (p.kind == ThreadPlanKind::Fragment || p.kind == ThreadPlanKind::Opaque) {
      const Stmt* a = alloc(p.layout);
      if (!a || a->type.scope != Scope::Fragment) return fail(s.loc, "plan.layout names '" + p.layout + "', which is no fragment");
      if (is_opaque(*a) != (p.kind == ThreadPlanKind::Opaque))
        return fail(s.loc, std::string("plan.kind=") + (p.kind == ThreadPlanKind::Opaque ? "opaque" : "fragment") + " on fragment '" +
                               p.layout + "', which " + (is_opaque(*a) ? "is" : "is not") + " opaque");
    }
    if (s.op == OpKind::Copy || s.op == OpKind::AtomicAdd) TG_RETURN_IF_ERROR(check_in_bounds(s, p));
    if (p.forward != ForwardedOperand::None) {
      const Stmt* dst = alloc(s.copy_dst().buffer);
      if (!dst || !is_forwarded(*dst))
        return fail(s.loc, "plan.forward on a copy into '" + s.copy_dst().buffer + "', which is not forwarded (layout.forwarded)");
      if (p.async) return fail(s.loc, "a forwarded copy (plan.forward) is never prefetched (plan.async)");
      if (alloc(s.copy_src().buffer)) return fail(s.loc, "a forwarded copy (plan.forward) copies from a tensor, not from '" + s.copy_src().buffer + "'");
    }
    return Status::ok();
  }

  /// plan.inbounds claims no more than the index ranges prove (ProveInBounds.cpp): a backend
  /// drops the bounds test of a claimed dimension, so a forged claim would read or write
  /// outside a tensor. Each side lists one entry per dimension of a global tensor, or none.
  Status check_in_bounds(const Stmt& s, const CopyPlan& p) {
    if (p.src_in.dims.empty() && p.dst_in.dims.empty()) return Status::ok();
    const Attr* a = find_attr(s.attrs, "plan.inbounds");
    SourceLoc loc = a ? a->loc : s.loc;
    if (!facts_) facts_ = in_bounds_facts(k_);
    auto it = facts_->find(&s);
    const InBounds none;
    const char* names[2] = {"source", "destination"};
    const InBounds* claims[2] = {&p.src_in, &p.dst_in};
    for (size_t i = 0; i < 2; ++i) {
      const InBounds& claim = *claims[i];
      if (claim.dims.empty()) continue;
      const TileRef& t = s.tiles[i];
      const Param* tensor = nullptr;
      for (const Param& q : k_.params)
        if (q.is_tensor && q.name == t.buffer) tensor = &q;
      if (!tensor) return fail(loc, std::string("plan.inbounds lists dimensions for the ") + names[i] + " '" + t.buffer + "', which is no tensor");
      if (claim.dims.size() != tensor->shape.size())
        return fail(loc, std::string("plan.inbounds lists ") + std::to_string(claim.dims.size()) + " dimensions for the " + names[i] + " '" +
                             t.buffer + "', which has " + std::to_string(tensor->shape.size()));
      const InBounds& proven = it == facts_->end() ? none : (i == 0 ? it->second.src : it->second.dst);
      for (size_t d = 0; d < claim.dims.size(); ++d)
        if (claim.dims[d] && !proven.at(d))
          return fail(loc, std::string("plan.inbounds claims dimension ") + std::to_string(d) + " of the " + names[i] + " tile of '" + t.buffer +
                               "' stays inside the tensor, which the index ranges do not prove");
    }
    return Status::ok();
  }

  /// A scan's free plan walks lines: a distribution over the carry's shape (one element per
  /// line) that gives every line to a thread (MapThreads.cpp).
  Status check_scan(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(CopyPlan p, get_copy_plan(s));
    if (p.kind != ThreadPlanKind::Free) return fail(s.loc, "a scan runs under a free plan over its lines (plan.kind=free)");
    if (p.threads.thread_count() != k_.threads)
      return fail(s.loc, "plan over " + std::to_string(p.threads.thread_count()) + " threads; the block has " + std::to_string(k_.threads));
    if (p.vector() != 1) return fail(s.loc, "a scan walks its lines one element at a time (plan.vec=1)");
    const Stmt* carry = alloc(s.scan_carry().buffer);
    if (!carry) return fail(s.loc, "scan carry '" + s.scan_carry().buffer + "' has no alloc");
    Status covered = check_coverage(p.threads, carry->type.shape, false);
    if (!covered.is_ok()) return fail(s.loc, "the scan plan does not cover its lines: " + covered.message());
    return Status::ok();
  }

  Status check_reduce(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(ReducePlan p, get_reduce_plan(s));
    if (p.exec.thread_count() != k_.threads)
      return fail(s.loc, "a reduce planned over " + std::to_string(p.exec.thread_count()) + " threads; the block has " +
                             std::to_string(k_.threads));
    for (const std::vector<int64_t>* steps : {&p.shuffle, &p.cross})
      for (int64_t o : *steps)
        if (o >= k_.threads) return fail(s.loc, "reduce xor offset " + std::to_string(o) + " names a thread outside the block");
    if (!p.uses_scratch()) return Status::ok();
    const Stmt* scratch = alloc(p.scratch);
    if (!scratch || scratch->type.scope != Scope::Shared)
      return fail(s.loc, "plan.scratch names '" + p.scratch + "', which is no shared buffer");
    const std::vector<int64_t>& shape = scratch->type.shape;
    if (shape.size() != 2 || shape[0] != k_.threads || shape[1] < p.partials())
      return fail(s.loc, "the reduce's scratch buffer '" + p.scratch + "' is too small for its partials: it needs [" +
                             std::to_string(k_.threads) + ", " + std::to_string(p.partials()) + "]");
    return Status::ok();
  }

  Status check_pipeline(const Stmt& loop) {
    TG_ASSIGN_OR_RETURN(PipelinePlan p, get_pipeline_plan(loop));
    int through_registers = 0;
    for (int64_t i : p.prefetch) {
      const Stmt& s = loop.body().stmts[size_t(i)];
      if (s.op != OpKind::Copy || !stmt_attr_bool(s, "plan.async"))
        return fail(loop.loc, "plan.prefetch names statement " + std::to_string(i) + ", which is not an asynchronous copy (plan.async)");
      if (get_copy_plan(s)->engine == CopyEngine::Registers) {
        ++through_registers;
        listed_register_copies_.insert(&s);
      }
      const Stmt* dst = alloc(s.copy_dst().buffer);
      if (!dst || dst->type.scope != Scope::Shared) return fail(s.loc, "a prefetched copy into something other than a shared buffer");
      TG_ASSIGN_OR_RETURN(SharedLayout l, get_shared_layout(dst->attrs));
      if (p.stages > 1 && l.stages != p.stages)
        return fail(s.loc, "shared buffer '" + dst->name + "' has " + std::to_string(l.stages) + " stages (layout.stages), its pipeline " +
                               std::to_string(p.stages));
      TG_RETURN_IF_ERROR(check_engine(s, l));
    }
    if (through_registers == 0) return Status::ok();
    if (through_registers != int(p.prefetch.size()))
      return fail(loop.loc, "a pipelined loop prefetches through registers (plan.engine=registers) and a copy engine at once");
    return check_register_pipeline(loop, p);
  }

  /// A prefetch's engine must be able to move it (CopyEngines.h): a forged plan.engine would
  /// otherwise reach a backend that emits exactly what the plan says.
  Status check_engine(const Stmt& copy, const SharedLayout& dst) {
    TG_ASSIGN_OR_RETURN(CopyPlan c, get_copy_plan(copy));
    if (!tensors_) tensors_ = kernel_buffers(k_);
    const BufferMap& buffers = *tensors_;
    if (c.engine == CopyEngine::Bulk) {
      auto box = bulk_copy_box(copy, buffers, dst);
      if (!box.is_ok()) return fail(copy.loc, "plan.engine=bulk on a copy the tensor copy engine cannot move: " + box.status().message());
    }
    if (c.engine == CopyEngine::Async) {
      Status fits = c.kind == ThreadPlanKind::Free ? async_copy_fits(copy, buffers, dst, c.threads, c.vector(), k_.threads)
                                                   : error(ErrorCode::Unsupported, "it has no free thread plan");
      if (!fits.is_ok()) return fail(copy.loc, "plan.engine=async on a copy the asynchronous copy unit cannot move: " + fits.message());
    }
    return Status::ok();
  }

  /// A loop prefetching through registers (PlanRegisterPrefetch.cpp): its copies must be ones
  /// the rules allow, and two stages only where the tiles can alternate between them, since
  /// the backend emits exactly this plan and re-checks none of it.
  Status check_register_pipeline(const Stmt& loop, const PipelinePlan& p) {
    if (buffers_.empty()) {
      buffers_ = buffers_at_any_depth(k_);
      written_ = written_buffers(k_.body);
    }
    std::vector<size_t> allowed = register_prefetchable(loop, buffers_, written_);
    std::vector<size_t> copies;
    for (int64_t i : p.prefetch) {
      const Stmt& s = loop.body().stmts[size_t(i)];
      if (std::find(allowed.begin(), allowed.end(), size_t(i)) == allowed.end())
        return fail(s.loc, "this copy cannot be prefetched through registers (plan.engine=registers): only the loop's leading copies "
                           "from a tensor the kernel never writes into a shared tile of the same dtype, with a free plan and offsets "
                           "without loads, can");
      copies.push_back(size_t(i));
    }
    if (p.stages > 2)
      return fail(loop.loc, "a loop prefetching through registers runs with one or two stages, not " + std::to_string(p.stages) +
                                " (plan.stages)");
    if (p.stages == 2) {
      std::string why;
      if (double_bufferable(k_, loop, copies, why).empty())
        return fail(loop.loc, "two stages (plan.stages=2) of tiles prefetched through registers, but they cannot alternate: " + why);
      return Status::ok();
    }
    for (size_t j : copies) {
      const Stmt* dst = alloc(loop.body().stmts[j].copy_dst().buffer);
      int64_t stages = get_shared_layout(dst->attrs)->stages;
      if (stages != 1)
        return fail(dst->loc, "shared buffer '" + dst->name + "' has " + std::to_string(stages) +
                                  " stages (layout.stages); the loop that prefetches it through registers runs with one");
    }
    return Status::ok();
  }

  /// A copy planned for registers is issued ahead by its loop, so the loop must list it.
  Status check_register_copies_listed() {
    Status st;
    for_each_stmt(k_.body, [&](const Stmt& s) {
      if (!st.is_ok() || s.op != OpKind::Copy || listed_register_copies_.count(&s)) return;
      if (auto plan = get_copy_plan(s); plan.is_ok() && plan->engine == CopyEngine::Registers)
        st = fail(s.loc, "a copy prefetched through registers (plan.engine=registers) that no pipelined loop lists (plan.prefetch)");
    });
    return st;
  }

  /// An element of a fragment lives in one thread's registers; stage_fragment_reads makes
  /// every parallel loop of a lowered kernel read and store a shared copy instead, and no
  /// backend touches another thread's registers. (An unlowered kernel, no lower.target, is not held to it.)
  Status check_fragment_reads() const {
    if (!find_attr(k_.attrs, "lower.target")) return Status::ok();
    Status st;
    for_each_stmt(k_.body, [&](const Stmt& s) {
      if (!st.is_ok() || s.op != OpKind::Parallel) return;
      for (const std::string& name : element_loads(s.body())) {
        const Stmt* a = alloc(name);
        if (a && a->type.scope == Scope::Fragment)
          st = fail(s.loc, "the parallel loop reads fragment '" + name + "' by index; lowering reads a shared copy of it instead (stage_fragment_reads)");
      }
      for (const std::string& name : written_buffers(s.body())) {
        const Stmt* a = alloc(name);
        if (st.is_ok() && a && a->type.scope == Scope::Fragment)
          st = fail(s.loc, "the parallel loop stores into fragment '" + name + "' by index; lowering stores into a shared copy of it instead (stage_fragment_reads)");
      }
    });
    return st;
  }

  /// A forwarded tile has no storage: only its forwarded copy and a gemm that loads the
  /// operand from the tensor itself (mma.a/mma.b = global) may name it. Checked over the
  /// whole kernel: prefetched copies and nested statements bypass a backend's per-op checks.
  Status check_forwarded_uses() {
    std::set<std::string> forwarded;
    for (const auto& [name, s] : allocs_)
      if (is_forwarded(*s)) forwarded.insert(name);
    if (forwarded.empty()) return Status::ok();
    Status st;
    for_each_stmt(k_.body, [&](const Stmt& s) {
      for (const std::string& tile : forwarded) {
        if (!st.is_ok() || s.op == OpKind::Alloc || !stmt_names_buffer(s, tile)) continue;
        bool forwarded_copy = s.op == OpKind::Copy && find_attr(s.attrs, "plan.forward") && s.copy_dst().buffer == tile &&
                              s.copy_src().buffer != tile && s.copy_dst().offsets.empty();
        bool direct_operand = false;
        if (s.op == OpKind::Gemm && s.gemm_c().buffer != tile) {
          auto g = get_gemm_plan(s);
          direct_operand = g.is_ok() && ((s.gemm_a().buffer == tile && g->a_from == OperandLocation::Global) ||
                                         (s.gemm_b().buffer == tile && g->b_from == OperandLocation::Global));
        }
        if (!forwarded_copy && !direct_operand)
          st = fail(s.loc, "forwarded tile '" + tile + "' (layout.forwarded) is used by an op that does not load it from its tensor");
      }
    });
    return st;
  }

  const Kernel& k_;
  std::map<std::string, const Stmt*> allocs_;
  std::set<const Stmt*> listed_register_copies_;
  BufferMap buffers_;  ///< filled by the first loop prefetching through registers
  std::set<std::string> written_;
  std::optional<std::map<const Stmt*, TileBounds>> facts_;  ///< what the ranges prove, computed on first need
  /// The kernel's top-level buffers, for the copy-engine rules; computed on first need.
  std::optional<BufferMap> tensors_;
};

}  // namespace

Status verify_lowered(const Kernel& k) { return LoweredChecker(k).run(); }

/// A gemm left in flight (plan.inflight) must be the one the rules allow on this target
/// (MmaOverlap.h): the backend moves the loop's barrier and waits for all but the newest group,
/// which on an instruction that does not run in groups, or with a second gemm or an
/// accumulator something else touches, would read registers still being written.
static Status check_inflight(const Kernel& k, const Stmt& loop, const TargetDescription& target) {
  TG_ASSIGN_OR_RETURN(PipelinePlan p, get_pipeline_plan(loop));
  if (p.inflight < 0) return Status::ok();
  std::string why;
  int64_t allowed = overlappable_gemm(k, loop, p, target, why);
  if (allowed == p.inflight) return Status::ok();
  if (why.empty() && allowed < 0)
    why = "no gemm of the loop uses an instruction of target '" + target.name +
          "' that runs in asynchronous groups (async_groups)";
  if (why.empty()) why = "the gemm that may is statement " + std::to_string(allowed);
  return fail(loop.loc,
              "plan.inflight=" + std::to_string(p.inflight) +
                  " leaves a gemm in flight across iterations, which it may not: " + why);
}

Status verify_lowered_for(const Kernel& k, const TargetDescription& target, const std::string& hash) {
  TG_RETURN_IF_ERROR(verify_lowered(k));
  TG_ASSIGN_OR_RETURN(KernelPlan plan, get_kernel_plan(k));
  if (plan.target.empty())
    return error(ErrorCode::InvalidArgument, "kernel '" + k.name + "' is not lowered (no lower.target); lower it for '" + target.name + "' first",
                 k.loc);
  if (plan.target != target.name)
    return error(ErrorCode::InvalidArgument, "kernel '" + k.name + "' was lowered for '" + plan.target + "', not for '" + target.name + "'",
                 k.loc);
  if (plan.target_hash != hash)
    return error(ErrorCode::InvalidArgument, "kernel '" + k.name + "' was lowered for another description of '" + target.name +
                                                 "' (lower.target_hash differs); lower it for this device",
                 k.loc);
  // What a backend is handed is fully lowered: its shared memory placed, once, by
  // place_shared (a partial lowering, `--after PASS`, is not yet).
  TG_RETURN_IF_ERROR(check_shared_placement(k, target));
  if (int64_t limit = shared_limit(k, target); plan.shared_bytes > limit)
    return fail(find_attr(k.attrs, "lower.shared_bytes") ? find_attr(k.attrs, "lower.shared_bytes")->loc : k.loc, "lower.shared_bytes = " + std::to_string(plan.shared_bytes) + " exceeds the " +
                                                                   std::to_string(limit) + " bytes per block target '" + target.name +
                                                                   "' leaves this kernel");
  Status st;
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (!st.is_ok()) return;
    if (s.op == OpKind::Gemm && find_attr(s.attrs, "mma.inst")) {
      std::string inst = get_gemm_plan(s)->inst;
      if (inst != "fma" && !target.find_instruction(inst))
        st = fail(s.loc, "mma.inst '" + inst + "' is no instruction of target '" + target.name + "'");
    }
    if (is_opaque(s) && !target.find_instruction(get_opaque_fragment(s)->inst))
      st = fail(s.loc, "layout.opaque '" + get_opaque_fragment(s)->inst + "' is no instruction of target '" + target.name + "'");
    if (s.op == OpKind::Copy) {
      CopyEngine e = get_copy_plan(s)->engine;
      if (e == CopyEngine::Bulk && !target.has_feature(Feature::BulkTensorCopy))
        st = fail(s.loc, "plan.engine=bulk, but target '" + target.name + "' has no tensor copy engine (bulk_tensor_copy)");
      if (e == CopyEngine::Async && !target.has_feature(Feature::AsyncCopy))
        st = fail(s.loc, "plan.engine=async, but target '" + target.name + "' has no asynchronous copies (async_copy)");
      if (e == CopyEngine::Registers && !target.has_feature(Feature::RegisterPrefetch))
        st = fail(s.loc, "plan.engine=registers, but target '" + target.name + "' does not prefetch through registers (register_prefetch)");
    }
  });
  TG_RETURN_IF_ERROR(st);
  // Plans whose rules read the instructions, once every instruction is the target's.
  for_each_stmt(k.body, [&](const Stmt& s) {
    if (st.is_ok() && s.op == OpKind::Pipelined) st = check_inflight(k, s, target);
    // A backend declares a packed tile as words and stores whole words into it, which only
    // the rules make right (PackedTiles.h).
    if (st.is_ok() && s.op == OpKind::Alloc && s.type.scope == Scope::Shared && *packed_word_bytes(s) > 0) {
      std::string why = packing_refusal(k, s, target);
      if (!why.empty()) st = fail(s.loc, "layout.words on shared tile '" + s.name + "', which cannot be stored as words: " + why);
    }
  });
  return st;
}

}  // namespace tegula::ir
