// Register prefetching for pipelined loops, as the lowering planned it
// (ir/lower/PlanRegisterPrefetch.cpp): each copy of the loop's plan.prefetch with
// plan.engine=registers is split into a load of iteration k + 1's elements into registers,
// issued right after iteration k stored its own, and the store of those registers into the
// shared tile where the copy stood. The first iteration's elements are loaded before the
// loop. Global latency then overlaps the barrier and the compute of the iteration; the
// shared tile, the barriers and the results are exactly those of the plain loop. Which copies
// qualify is the lowering's decision, checked by read_lowered; this file only emits it. For a
// packed tile (Packed.cpp) the registers hold the loaded 16-byte words as they are.
#include <cstdint>
#include <functional>

#include "ir/Analysis.h"
#include "ir/lower/Lowered.h"
#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

Status KernelGen::bind_register_prefetch(const ir::Stmt& loop, const ir::PipelinePlan& plan, std::vector<RegPrefetch>& out) {
  for (int64_t i : plan.prefetch) {
    size_t j = size_t(i);
    const ir::Stmt& s = loop.body().stmts[j];
    TG_ASSIGN_OR_RETURN(ir::CopyPlan copy_plan, ir::get_copy_plan(s));
    if (copy_plan.engine != ir::CopyEngine::Registers) continue;
    Buf* src = find_buf(s.copy_src().buffer);
    Buf* dst = find_buf(s.copy_dst().buffer);
    if (!src || !dst) return fail(s.loc, "unbound copy operand");
    ir::BufferMap infos;
    for (Buf* b : {src, dst}) infos[b->name] = ir::BufferInfo{b->scope, b->dtype, b->shape, {}};
    TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, ir::tile_op_extent(s, infos));
    const ir::Distribution& dist = copy_plan.threads;
    RegPrefetch p;
    p.copy = &s;
    p.index = j;
    p.src = src;
    p.dst = dst;
    p.extent = extent;
    p.e = bind(dist, int(extent.size()));
    p.vec = copy_plan.vec;
    p.pad = ir::stmt_attr_float(s, "pad");
    if (dst->packed) {
      // One word per vector of slots (prefetch_load checks the copy moves whole words).
      for (int64_t v = 0; v < p.e.slots(); v += per_word(*dst))
        p.regs.push_back(slot_inside(p.e, v, p.extent) ? m_.local_variable(dst->word_type) : 0);
    } else {
      for (int64_t v = 0; v < p.e.slots(); ++v)
        p.regs.push_back(slot_inside(p.e, v, p.extent) ? b_.var(src->elem) : 0);
    }
    out.push_back(std::move(p));
  }
  return Status::ok();
}

Status KernelGen::prefetch_load(RegPrefetch& p, const std::string& var, Value k) {
  var_scopes_.emplace_back();
  var_scopes_.back()[var] = Var{k, 0, T::I32};
  auto origin = tile_origin(p.copy->copy_src());
  var_scopes_.pop_back();
  if (!origin.is_ok()) return origin.status();
  const Exec& e = p.e;
  int rank = e.rank;
  uint32_t bytes = uint32_t(p.vec) * uint32_t(dtype_size(p.src->dtype));
  bool vector = p.vec > 1 && (bytes == 4 || bytes == 8 || bytes == 16) && !e.dist.values.empty() &&
                e.dist.values[0].size == p.vec && e.dist.values[0].dim == rank - 1 && e.dist.values[0].stride == 1 &&
                p.extent.back() % p.vec == 0 && (p.src->shape.back() < 0 || p.src->shape.back() % p.vec == 0);
  if (p.dst->packed && !(vector && copies_whole_words(*p.copy, e.dist, p.extent, *p.src, *p.dst)))
    return fail(p.copy->loc, "packed shared tile '" + p.dst->name + "' prefetched by a copy that does not move whole 16-byte words");
  // Each vector of slots v0 .. v0 + vec - 1 inside the tile, at its global coordinates.
  auto each_vector = [&](const std::function<void(int64_t v0, const std::vector<Value>& gc)>& fn) {
    for (int64_t v0 = 0; v0 < e.slots(); v0 += p.vec) {
      int in = slot_inside(e, v0, p.extent);
      if (in == 0) continue;
      std::vector<Value> c = slot_coords(e, v0);
      auto body = [&] { fn(v0, add_origin(*origin, c)); };
      if (in == 1) body();
      else b_.if_(coords_inside(c, p.extent), body);
    }
  };
  auto scalar_path = [&] {
    if (p.dst->packed) {
      each_vector([&](int64_t v0, const std::vector<Value>& gc) {
        std::vector<Value> raws;
        for (int64_t u = 0; u < p.vec; ++u) {
          std::vector<Value> cu = gc;
          cu[size_t(rank - 1)] = b_.add(cu[size_t(rank - 1)], b_.ci(int32_t(u)));
          raws.push_back(read_memory_raw(*p.src, cu, p.pad));
        }
        b_.store(p.regs[size_t(v0 / p.vec)], pack_word(raws, p.src->dtype));
      });
      return;
    }
    for_slots(e, p.extent, [&](int64_t v, const std::vector<Value>& c) {
      b_.store(p.regs[size_t(v)], read_memory_raw(*p.src, add_origin(*origin, c), p.pad));
    });
  };
  // The loop variable takes `k`'s values only inside the loop's range (the caller tests it).
  bool within = tile_within(p.copy->copy_src(), *p.src);
  auto vector_path = [&] {
    each_vector([&](int64_t v0, const std::vector<Value>& gc) {
      Value words = load_words(*p.src, global_index(*p.src, gc), within ? b_.cb(true) : global_inside(*p.src, gc), p.vec, p.pad);
      if (p.dst->packed) {
        b_.store(p.regs[size_t(v0 / p.vec)], words);
        return;
      }
      std::vector<Value> raws = unpack_words(words, bytes / 4, p.src->dtype, p.src->elem);
      for (int64_t u = 0; u < p.vec; ++u) b_.store(p.regs[size_t(v0 + u)], raws[size_t(u)]);
    });
  };
  auto run = [&] {
    if (!vector) return scalar_path();
    if (tensor_align_ >= int64_t(bytes)) return vector_path();
    Value aligned = b_.eq(b_.umod(b_.bitcast(p.src->offset, T::U32), b_.cu(uint32_t(p.vec))), b_.cu(0));
    b_.if_(aligned, vector_path, scalar_path);
  };
  if (e.replicated) b_.if_(e.primary, run);
  else run();
  return Status::ok();
}

Status KernelGen::prefetch_store(RegPrefetch& p) {
  TG_ASSIGN_OR_RETURN(std::vector<Value> origin, tile_origin(p.copy->copy_dst()));
  auto run = [&] {
    if (p.dst->packed) {
      for (int64_t v0 = 0; v0 < p.e.slots(); v0 += p.vec) {
        uint32_t reg = p.regs[size_t(v0 / p.vec)];
        if (!reg) continue;
        std::vector<Value> c = slot_coords(p.e, v0);
        auto body = [&] {
          Value word = b_.op_type(OpLoad, p.dst->word_type, {reg});
          b_.store_shared(packed_ptr(*p.dst, shared_index(*p.dst, add_origin(origin, c))), word);
        };
        if (slot_inside(p.e, v0, p.extent) == 1) body();
        else b_.if_(coords_inside(c, p.extent), body);
      }
      return;
    }
    for_slots(p.e, p.extent, [&](int64_t v, const std::vector<Value>& c) {
      store_raw(*p.dst, shared_index(*p.dst, add_origin(origin, c)), b_.load(p.regs[size_t(v)], p.src->elem));
    });
  };
  if (p.e.replicated) b_.if_(p.e.primary, run);
  else run();
  return Status::ok();
}

}  // namespace tegula::vulkan
