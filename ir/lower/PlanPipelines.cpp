// Pipeline planning: turn a pipelined loop's stage count into a software pipeline, and check
// that the kernel's shared memory fits the target.
//
// A copy from global into a shared buffer, directly in a pipelined loop's body, is a
// prefetch candidate when it is the only writer of that buffer and nothing in the body reads
// the buffer before it: then iteration i + stages - 1 can load while iteration i computes.
// Each such buffer gets `stages` copies (layout.stages); the copy is marked plan.async with
// the engine that moves it (bulk: the tensor copy engine, where the target has one and the
// tile is 2-D with 16-byte rows; async: per-thread asynchronous copies; a target with
// neither runs the loop unpipelined, and says so). The loop lists its prefetched statements
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
#include "ir/lower/Forwarding.h"
#include "ir/lower/Passes.h"
#include "ir/lower/SharedLayout.h"

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

/// Whether the tensor copy engine can write a tile into a shared buffer's layout: it writes
/// boxes densely (no row padding), at most 256 elements per box dimension, with inner rows of
/// whole 16 bytes, swizzled only in the 32/64/128-byte modes whose span is one column block.
bool bulk_writable(LowerContext& ctx, const std::string& name, const std::vector<int64_t>& extent) {
  Stmt* alloc = ctx.find_alloc(name);
  if (!alloc) return false;
  auto l = get_shared_layout(alloc->attrs);
  if (!l.is_ok() || l->pad) return false;
  int64_t esize = int64_t(dtype_size(alloc->type.dtype));
  if (extent != alloc->type.shape || extent[0] > 256) return false;
  int64_t inner = l->block ? l->block : extent[1];
  if (inner > 256 || (inner * esize) % 16) return false;
  if (l->swizzle_bits) {
    int64_t span = int64_t(16) << l->swizzle_bits;  // bits 1, 2, 3: 32, 64, 128 bytes
    if (l->swizzle_base != 4 || l->swizzle_shift != 3 || inner * esize != span) return false;
  }
  return true;
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
      ctx.note(where(loop) + "pipelined loop runs unpipelined: target '" + ctx.target.name + "' has no asynchronous copies");
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
      if (candidate && writers_of(ctx.kernel.body, dst) == 1 && !seen_reads.count(dst)) {
        auto extent = tile_op_extent(s, buffers);
        int64_t vec = stmt_attr_int(s, "plan.vec");
        int64_t esize = int64_t(dtype_size(buffers.at(dst).dtype));
        bool bulk = has_bulk && extent.is_ok() && extent->size() == 2 && vec * esize >= 16 &&
                    buffers.at(s.copy_src().buffer).dtype == buffers.at(dst).dtype && bulk_writable(ctx, dst, *extent);
        bool async = has_async && (vec * esize == 4 || vec * esize == 8 || vec * esize == 16) &&
                     buffers.at(s.copy_src().buffer).dtype == buffers.at(dst).dtype;
        if (bulk || async) {
          set_attr(s.attrs, "plan.async", AttrValue::of_bool(true));
          set_attr(s.attrs, "plan.engine", AttrValue::of_ident(bulk ? "bulk" : "async"));
          prefetch.push_back(int64_t(i));
          stages_of[dst] = stages;
          ctx.note(where(s) + "copy into '" + dst + "' prefetched " + std::to_string(stages - 1) + " iterations ahead by the " +
                   (bulk ? "tensor copy engine" : "asynchronous copy unit"));
        } else {
          ctx.note(where(s) + "copy into '" + dst + "' stays synchronous (dtype conversion or narrow vectors)");
        }
      }
      for (const auto& [name, info] : buffers)
        if (info.scope == Scope::Shared && reads(s, name)) seen_reads.insert(name);
    }
    if (prefetch.empty()) return;
    set_attr(loop.attrs, "plan.prefetch", AttrValue::of_ints(prefetch));
    loops.push_back({&loop, prefetch});
  });

  // Fit shared memory: shrink stages until the total fits.
  auto total_bytes = [&](int64_t max_stages) {
    int64_t total = 0;
    for (const Stmt& s : ctx.kernel.body.stmts) {
      if (s.op != OpKind::Alloc || s.type.scope != Scope::Shared || is_forwarded(s)) continue;
      auto l = get_shared_layout(s.attrs);
      SharedLayout layout = l.is_ok() ? *l : SharedLayout{};
      int64_t stages = stages_of.count(s.name) ? std::min(stages_of.at(s.name), max_stages) : 1;
      int64_t bytes = shared_stage_bytes(layout, s.type.shape, s.type.dtype);
      total = (total + layout.align - 1) / layout.align * layout.align + bytes * stages;
    }
    return total;
  };
  int64_t limit = ctx.target.shared_memory_per_block;
  int64_t max_stages = 16;
  while (max_stages > 1 && total_bytes(max_stages) > limit) --max_stages;
  int64_t total = total_bytes(max_stages);
  if (total > limit)
    return error(ErrorCode::Unsupported, "kernel '" + ctx.kernel.name + "' needs " + std::to_string(total) +
                                             " bytes of shared memory; target '" + ctx.target.name + "' offers " +
                                             std::to_string(limit) + " per block",
                 ctx.kernel.loc);
  for (Stmt& s : ctx.kernel.body.stmts) {
    if (s.op != OpKind::Alloc || !stages_of.count(s.name)) continue;
    int64_t stages = std::min(stages_of.at(s.name), max_stages);
    auto l = get_shared_layout(s.attrs);
    SharedLayout layout = l.is_ok() ? *l : SharedLayout{};
    layout.stages = stages;
    set_shared_layout(s.attrs, layout);
  }
  for (auto& [loop, prefetch] : loops) {
    int64_t want = stmt_attr_int(*loop, "stages");
    if (want > max_stages) {
      set_attr(loop->attrs, "plan.stages", AttrValue::of_int(max_stages));
      ctx.note(where(*loop) + "pipeline shortened to " + std::to_string(max_stages) + " stages to fit " + std::to_string(limit) +
               " bytes of shared memory");
    } else {
      set_attr(loop->attrs, "plan.stages", AttrValue::of_int(want));
    }
  }
  set_attr(ctx.kernel.attrs, "lower.shared_bytes", AttrValue::of_int(total));
  return Status::ok();
}

}  // namespace tegula::ir
