// Pipeline planning: turn a pipelined loop's stage count into a software pipeline, and check
// that the kernel's shared memory fits the target.
//
// A copy from global into a shared buffer, directly in a pipelined loop's body, is a
// prefetch candidate when it is the only writer of that buffer and nothing in the body reads
// the buffer before it: then iteration i + stages - 1 can load while iteration i computes.
// Each such buffer gets `stages` copies (layout.stages); the copy is marked plan.async with
// the engine that moves it (bulk: the tensor copy engine, where the target has one and the
// tile is 2-D with 16-byte rows; async: per-thread asynchronous copies; a target with
// neither runs the loop unpipelined, and says so, unless it prefetches through registers,
// which plan_register_prefetch plans and explains). The loop lists its prefetched statements
// (plan.prefetch) for the backend, which emits the prologue, the waits and the one barrier
// per iteration that make the stage reuse safe. Stages shrink until shared memory fits; a
// kernel that does not fit even unpipelined is rejected with the byte counts. Forwarded
// tiles (ForwardOperands.cpp) are neither prefetched nor counted.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>

#include "ir/Analysis.h"
#include "ir/lower/CopyEngines.h"
#include "ir/lower/Forwarding.h"
#include "ir/lower/Passes.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/SharedPlacement.h"

namespace tegula::ir {
namespace {

/// How many statements write the buffer (the op list's roles decide what writes).
int writers_of(const Block& body, const std::string& name) {
  int n = 0;
  for_each_stmt(body, [&](const Stmt& s) {
    bool writes_it = false;
    for_each_access(s, [&](const BufferAccess& a) { writes_it = writes_it || (writes(a.access) && a.buffer == name); });
    n += writes_it;
  });
  return n;
}

bool reads(const Stmt& s, const std::string& name) { return read_buffers(s).count(name) != 0; }

/// The engine that prefetches a candidate copy ("bulk", "async"), or "" (stays synchronous,
/// with the reason in the log). A bulk destination is aligned for the engine here, so that
/// placement puts every stage on 128 bytes.
std::string choose_engine(LowerContext& ctx, const Stmt& s, const BufferMap& buffers, bool has_bulk, bool has_async) {
  const std::string& dst = s.copy_dst().buffer;
  Stmt* alloc = ctx.find_alloc(dst);
  auto layout = alloc ? get_shared_layout(alloc->attrs) : Result<SharedLayout>(error(ErrorCode::Internal, "no alloc"));
  if (!layout.is_ok()) return "";
  std::string why;
  if (has_bulk) {
    SharedLayout aligned = *layout;
    aligned.align = std::max(aligned.align, kBulkCopyAlign);
    auto box = bulk_copy_box(s, buffers, aligned);
    if (box.is_ok()) {
      set_shared_layout(alloc->attrs, aligned);
      return "bulk";
    }
    why = "not by the tensor copy engine: " + box.status().message();
  }
  if (has_async) {
    auto plan = get_distribution(s.attrs, "plan");
    Status fits = plan.is_ok() ? async_copy_fits(s, buffers, *layout, *plan, std::max<int64_t>(1, stmt_attr_int(s, "plan.vec")), ctx.kernel.threads)
                               : plan.status();
    if (fits.is_ok()) {
      if (!why.empty()) ctx.note(where(s) + "copy into '" + dst + "' " + why);
      return "async";
    }
    why += std::string(why.empty() ? "" : "; ") + "not by the asynchronous copy unit: " + fits.message();
  }
  ctx.note(where(s) + "copy into '" + dst + "' stays synchronous (" + why + ")");
  return "";
}

}  // namespace

Status plan_pipelines(LowerContext& ctx) {
  BufferMap buffers = ctx.buffers();
  bool has_bulk = ctx.target.has_feature(Feature::BulkTensorCopy);
  bool has_async = ctx.target.has_feature(Feature::AsyncCopy);
  std::vector<std::pair<Stmt*, std::vector<int64_t>>> loops;  // loop, prefetched indices
  std::map<std::string, int64_t> stages_of;
  for_each_stmt(ctx.kernel.body, [&](Stmt& loop) {
    if (loop.op != OpKind::Pipelined) return;
    int64_t stages = stmt_attr_int(loop, "stages");
    if (stages <= 1) return;
    if (!has_bulk && !has_async) {
      // A target that prefetches through registers pipelines the loop in the next pass, which
      // says how (or that it runs unpipelined after all).
      if (!ctx.target.has_feature(Feature::RegisterPrefetch))
        ctx.note(where(loop) + "pipelined loop runs unpipelined: target '" + ctx.target.name +
                 "' has no asynchronous copies");
      return;
    }
    std::vector<int64_t> prefetch;
    std::set<std::string> seen_reads;
    auto& body = loop.blocks[0].stmts;
    for (size_t i = 0; i < body.size(); ++i) {
      Stmt& s = body[i];
      bool candidate = s.op == OpKind::Copy && buffers.at(s.copy_src().buffer).scope == Scope::Global &&
                       buffers.at(s.copy_dst().buffer).scope == Scope::Shared && !find_attr(s.attrs, "plan.forward");
      const std::string dst = candidate ? s.copy_dst().buffer : "";
      int writers = candidate ? writers_of(ctx.kernel.body, dst) : 0;
      if (candidate && writers != 1)
        ctx.note(where(s) + "copy into '" + dst + "' is not prefetched: " + std::to_string(writers) +
                 " statements of the kernel write '" + dst + "' (its stages would be ambiguous to them; give the others a tile of their own)");
      if (candidate && writers == 1 && !seen_reads.count(dst)) {
        std::string engine = choose_engine(ctx, s, buffers, has_bulk, has_async);
        if (!engine.empty()) {
          set_attr(s.attrs, "plan.async", AttrValue::of_bool(true));
          set_attr(s.attrs, "plan.engine", AttrValue::of_ident(engine));
          prefetch.push_back(int64_t(i));
          stages_of[dst] = stages;
          ctx.note(where(s) + "copy into '" + dst + "' prefetched " + std::to_string(stages - 1) + " iterations ahead by the " +
                   (engine == "bulk" ? "tensor copy engine" : "asynchronous copy unit"));
        }
      }
      for (const auto& [name, info] : buffers)
        if (info.scope == Scope::Shared && reads(s, name)) seen_reads.insert(name);
    }
    if (prefetch.empty()) return;
    set_attr(loop.attrs, "plan.prefetch", AttrValue::of_ints(prefetch));
    loops.push_back({&loop, prefetch});
  });

  // Fit shared memory: shrink stages until the placement (SharedPlacement.h, what
  // place_shared will record) fits; a kernel that does not fit even unpipelined is refused
  // there, with the byte counts.
  auto apply_stages = [&](int64_t max_stages) -> Result<int64_t> {
    for (Stmt& s : ctx.kernel.body.stmts) {
      if (s.op != OpKind::Alloc || !stages_of.count(s.name)) continue;
      TG_ASSIGN_OR_RETURN(SharedLayout layout, get_shared_layout(s.attrs));
      layout.stages = std::min(stages_of.at(s.name), max_stages);
      set_shared_layout(s.attrs, layout);
    }
    for (auto& [loop, prefetch] : loops) set_attr(loop->attrs, "plan.stages", AttrValue::of_int(std::min(stmt_attr_int(*loop, "stages"), max_stages)));
    TG_ASSIGN_OR_RETURN(std::vector<SharedRegion> regions, shared_regions(ctx.kernel, ctx.target));
    return place_regions(regions).bytes;
  };
  int64_t limit = shared_limit(ctx.kernel, ctx.target);
  int64_t max_stages = 16;
  for (;;) {
    TG_ASSIGN_OR_RETURN(int64_t bytes, apply_stages(max_stages));
    if (bytes <= limit || max_stages == 1) break;
    --max_stages;
  }
  for (auto& [loop, prefetch] : loops) {
    if (stmt_attr_int(*loop, "stages") > max_stages)
      ctx.note(where(*loop) + "pipeline shortened to " + std::to_string(max_stages) + " stages to fit " + std::to_string(limit) +
               " bytes of shared memory");
  }
  return Status::ok();
}

}  // namespace tegula::ir
