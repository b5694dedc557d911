/// \file
/// Software pipelines (ir/lower/README.md, "Pipelined loops"), kernel-wide resources
/// (mbarriers, tensor memory) and the copies a pipeline prefetches.
///
/// A pipelined loop with S stages issues the prefetched copies of iterations 0 .. S-2 before
/// it starts; iteration i waits for its own copies (cp.async.wait_group S-2, or the stage's
/// mbarrier for the bulk tensor copy engine, with a per-stage phase bit), and issues the
/// copies of iteration i + S - 1 into the stage iteration i - 1 used, after one block-wide
/// barrier that ends every thread's use of that stage. With a gemm the lowering leaves in
/// flight (plan.inflight; wgmma, wait_group 1), the barrier and the issue move to the end of
/// the iteration, after the wait that retires iteration i - 1's group.
///
/// Engines, as the lowering planned them (plan.engine; ir/lower/CopyEngines.h says when each
/// applies): `bulk` copies go through cp.async.bulk.tensor (one thread, tensor maps built at
/// launch, passed as __grid_constant__ parameters), `async` ones through cp.async, 4-, 8- or
/// 16-byte vectors per thread with zero fill past the edge, the edge tested only in the
/// dimensions the lowering did not prove inside the tensor (plan.inbounds); the others are
/// plain loads and stores, still ahead of time. The mbarriers sit where place_shared put them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

#include "ir/Analysis.h"
#include "ir/lower/CopyEngines.h"
#include "ir/lower/Lowered.h"
#include "plugins/cuda/codegen/Descriptors.h"
#include "plugins/cuda/DriverApi.h"

namespace tegula::cuda::gen {

static void walk(const ir::Block& b, const std::function<void(const ir::Stmt&)>& fn) {
  for (const ir::Stmt& s : b.stmts) {
    fn(s);
    for (const ir::Block& inner : s.blocks) walk(inner, fn);
  }
}

Status Emitter::prepare_resources() {
  Status st;
  walk(k_.body, [&](const ir::Stmt& s) {
    if (!st.is_ok()) return;
    // Which loops and gemms signal through mbarriers, and where they sit, the lowering
    // decided (ir/lower/SharedPlacement.h); this only names them and counts arrivals.
    auto needed = ir::barriers_needed(s);
    auto offset = ir::barrier_offset(s);
    if (!needed.is_ok() || !offset.is_ok()) {
      st = needed.is_ok() ? offset.status() : needed.status();
      return;
    }
    if (*needed > 0) {
      if (*offset < 0) {
        st = error(ErrorCode::Internal, "cuda codegen: a loop or gemm that needs mbarriers has none placed (plan.barriers)", s.loc);
        return;
      }
      // Phase variables are numbered by their first barrier, as they always were.
      mbarrier_of[&s] = Barriers{int64_t(mbarrier_inits.size()), *offset};
    }
    if (s.op == ir::OpKind::Gemm) {
      auto p = ir::get_gemm_plan(s);
      if (!p.is_ok()) return;
      if (p->kind == InstructionKind::Wgmma || p->kind == InstructionKind::Tcgen05) proxy_fence = true;
      if (p->kind == InstructionKind::Wgmma) uses_wgmma = true;
      if (*needed > 0) {
        mbarrier_inits.push_back({*offset, p->gm * p->gn});
        uses_tmem = true;
        tmem_columns = std::max(tmem_columns, tcgen05_columns(*p));
      }
    } else {
      for (int64_t i = 0; i < *needed; ++i) mbarrier_inits.push_back({*offset + ir::kSharedBarrierBytes * i, 1});
    }
  });
  TG_RETURN_IF_ERROR(st);
  if (uses_tmem) {
    TG_ASSIGN_OR_RETURN(ir::KernelPlan plan, ir::get_kernel_plan(k_));
    if (plan.tmem_slot < 0) return error(ErrorCode::Internal, "cuda codegen: tcgen05 without a tensor-memory slot (lower.tmem_slot)", k_.loc);
    tmem_slot = itos(plan.tmem_slot);
    if (tmem_columns > 512) return error(ErrorCode::Unsupported, "cuda: the kernel's tcgen05 accumulators need " + itos(tmem_columns) + " tensor-memory columns; there are 512");
    int64_t c = 32;
    while (c < tmem_columns) c *= 2;
    tmem_columns = c;
  }
  return st;
}

Status Emitter::emit_setup() {
  if (!mbarrier_inits.empty()) {
    open("if (t == 0)");
    for (const auto& [offset, arrivals] : mbarrier_inits) line("tg_mbar_init(smem_u32 + " + itos(offset) + "u, " + itos(arrivals) + "u);");
    line("tg_mbar_init_fence();");
    close();
    for (const auto& [stmt, bar] : mbarrier_of)
      line("unsigned " + std::string(stmt->op == ir::OpKind::Gemm ? "ph" : "pph") + itos(bar.index) + " = 0;");
  }
  if (uses_tmem) {
    open("if (t < 32)");
    line("asm volatile(\"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\" :: \"r\"(smem_u32 + " + tmem_slot + "u), \"r\"(" +
         itos(tmem_columns) + "u) : \"memory\");");
    line("asm volatile(\"tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\" ::: \"memory\");");
    close();
  }
  if (!mbarrier_inits.empty() || uses_tmem) {
    if (uses_tmem) line("asm volatile(\"tcgen05.fence::before_thread_sync;\" ::: \"memory\");");
    line("__syncthreads();");
  }
  if (uses_tmem) {
    line("asm volatile(\"tcgen05.fence::after_thread_sync;\" ::: \"memory\");");
    line("const unsigned tmem = *(volatile unsigned*)(smem + " + tmem_slot + ");");
  }
  return Status::ok();
}

Status Emitter::emit_teardown() {
  if (uses_tmem) {
    line("asm volatile(\"tcgen05.fence::before_thread_sync;\" ::: \"memory\");");
    line("__syncthreads();");
    open("if (t < 32)");
    line("asm volatile(\"tcgen05.fence::after_thread_sync;\" ::: \"memory\");");
    line("asm volatile(\"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;\" :: \"r\"(tmem), \"r\"(" + itos(tmem_columns) + "u) : \"memory\");");
    close();
  }
  return Status::ok();
}

// --- prefetched copies -------------------------------------------------------------------------

Result<Emitter::Engine> Emitter::engine_of(const ir::Stmt& s, int64_t* map_index, int64_t* bytes) {
  TG_ASSIGN_OR_RETURN(ir::CopyPlan plan, ir::get_copy_plan(s));
  if (plan.engine == ir::CopyEngine::Async) return Engine::Async;
  if (plan.engine != ir::CopyEngine::Bulk) return Engine::Sync;
  // The lowering chose the engine and read_lowered checked that it moves this copy
  // (ir/lower/CopyEngines.h); the boxes come from the same function.
  const Buffer* src = buffer(s.copy_src().buffer);
  const Buffer* dst = buffer(s.copy_dst().buffer);
  auto box = ir::bulk_copy_box(s, ir::kernel_buffers(k_), dst ? dst->layout : ir::SharedLayout{});
  if (!src || !dst || !box.is_ok())
    return error(ErrorCode::Internal, "cuda codegen: plan.engine=bulk on a copy the tensor copy engine cannot move" +
                                          (box.is_ok() ? std::string() : ": " + box.status().message()),
                 s.loc);
  int64_t es = int64_t(dtype_size(dst->dtype));
  if (bytes) *bytes = box->bytes;
  if (!map_index) return Engine::Bulk;
  TensorMapSpec spec;
  spec.arg = uint32_t(src->arg);
  spec.elem_bytes = uint32_t(es);
  if (box->nan_fill) spec.dtype = uint32_t(es == 2 ? (dst->dtype == DType::BF16 ? 9 : kTensorMapFloat16) : es == 4 ? kTensorMapFloat32 : kTensorMapFloat64);
  else spec.dtype = uint32_t(es == 1 ? kTensorMapUint8 : es == 2 ? kTensorMapUint16 : es == 4 ? kTensorMapUint32 : kTensorMapUint64);
  spec.dims = src->dim_specs;
  spec.box = std::vector<uint32_t>{uint32_t(box->rows), uint32_t(box->cols)};
  spec.swizzle = uint32_t(box->swizzle_bytes == 0 ? 0 : box->swizzle_bytes == 32 ? 1 : box->swizzle_bytes == 64 ? 2 : 3);
  spec.oob_fill = uint32_t(box->nan_fill ? kTensorMapOobFillNan : kTensorMapOobFillNone);
  int64_t found = -1;
  for (size_t i = 0; i < info.tensor_maps.size(); ++i) {
    const TensorMapSpec& m = info.tensor_maps[i];
    if (m.arg == spec.arg && m.dtype == spec.dtype && m.box == spec.box && m.swizzle == spec.swizzle && m.oob_fill == spec.oob_fill) found = int64_t(i);
  }
  if (found < 0) {
    found = int64_t(info.tensor_maps.size());
    info.tensor_maps.push_back(spec);
  }
  *map_index = found;
  require_align(*src, 16);
  return Engine::Bulk;
}

Status Emitter::emit_prefetch_copy(const ir::Stmt& s, Engine engine, int64_t map_index, const std::string& bar_addr) {
  if (engine == Engine::Sync) return emit_copy(s);
  const Buffer* src = buffer(s.copy_src().buffer);
  const Buffer* dst = buffer(s.copy_dst().buffer);
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, extent_of(s));
  int64_t es = int64_t(dtype_size(dst->dtype));
  std::vector<std::string> off;  // one per axis of the tensor (a view has more than the tile)
  open("");
  for (size_t d = 0; d < src->shape.size(); ++d) {
    if (s.copy_src().offsets.empty()) {
      off.push_back("0LL");
      continue;
    }
    TG_ASSIGN_OR_RETURN(std::string e, index_expr(s.copy_src().offsets[d]));
    std::string name = fresh("o");
    line("const long long " + name + " = " + e + ";");
    off.push_back(name);
  }
  if (engine == Engine::Bulk) {
    const TensorMapSpec& m = info.tensor_maps[size_t(map_index)];
    const ir::SharedLayout& l = dst->layout;
    int64_t er = extent[0], ec = extent[1], box_rows = m.box[0];
    int64_t blocks = l.block ? ec / l.block : 1;
    for (int64_t r0 = 0; r0 < er; r0 += box_rows) {
      for (int64_t j = 0; j < blocks; ++j) {
        int64_t byte = l.block ? (j * dst->shape[0] * l.block + r0 * l.block) * es : r0 * dst->shape[1] * es;
        line("tg_tma_load_2d(smem_u32 + (unsigned)(" + stage_base(*dst) + ") + " + itos(byte) + "u, &tm" + itos(map_index) + ", (int)(" + off[1] + " + " +
             itos(j * (l.block ? l.block : 0)) + "), (int)(" + off[0] + " + " + itos(r0) + "), " + bar_addr + ");");
      }
    }
    close();
    return Status::ok();
  }
  // cp.async, n elements (4, 8 or 16 bytes) per access, zero fill past the edge.
  TG_ASSIGN_OR_RETURN(ir::CopyPlan copy_plan, ir::get_copy_plan(s));
  const ir::Distribution& plan = copy_plan.threads;
  int64_t vec = copy_plan.vector();
  double pad = ir::stmt_attr_float(s, "pad");
  TG_ASSIGN_OR_RETURN(std::vector<Elem> elems, free_elems(s, plan, extent, vec));
  require_align(*src, vec * es);
  int64_t bytes = vec * es;
  for (const Elem& e : elems) {
    if (e.n != vec) return unsupported(s, "an asynchronous copy whose plan lost its vector width");
    if (!e.guard.empty()) open("if (" + e.guard + ")");
    else open("");
    // A rank-dropping view's leading offsets are indices (ir::leading_axes): tested below
    // as rows are, so a head past the tensor reads zeros.
    size_t lead = ir::leading_axes(off.size(), e.idx.size());
    std::vector<std::string> c(off.begin(), off.begin() + std::ptrdiff_t(lead));
    for (size_t d = 0; d < e.idx.size(); ++d) c.push_back("(" + off[d + lead] + " + " + e.idx[d] + ")");
    // Bytes of the vector inside the tensor: the rows' tests and the column's, each dropped
    // where the lowering proved the dimension inside (plan.inbounds).
    std::string rows_in;
    for (size_t d = 0; d + 1 < c.size(); ++d)
      if (!copy_plan.src_in.at(d))
        rows_in +=
            "(unsigned long long)" + c[d] + " < (unsigned long long)gd_" + src->name + "_" + itos(int64_t(d)) + " && ";
    bool column_in = copy_plan.src_in.at(c.size() - 1);
    std::string dst_addr = shared_addr(*dst, e.idx);
    std::string src_addr = "(const void*)(" + src->cname + " + (" + global_linear(*src, c) + ") * " + itos(es) + ")";
    if (column_in && rows_in.empty()) {
      line("tg_cp_async(" + dst_addr + ", " + src_addr + ", " + itos(bytes) + ", " + itos(bytes) + ");");
      close();
      continue;
    }
    if (column_in) {
      line("const int src_bytes = (" + rows_in.substr(0, rows_in.size() - 4) + ") ? " + itos(bytes) + " : 0;");
    } else {
      std::string last = "gd_" + src->name + "_" + itos(int64_t(c.size()) - 1);
      line("const long long cl = " + c.back() + ";");
      line("const long long left = (" + rows_in + "cl >= 0) ? " + last + " - cl : 0;");
      line("const int src_bytes = left <= 0 ? 0 : (left >= " + itos(vec) + " ? " + itos(bytes) + " : (int)left * " +
           itos(es) + ");");
    }
    if (pad == 0) {
      line("tg_cp_async(" + dst_addr + ", src_bytes ? (const void*)(" + src->cname + " + (" + global_linear(*src, c) + ") * " + itos(es) + ") : (const void*)" +
           src->cname + ", " + itos(bytes) + ", src_bytes);");
    } else {
      open("if (src_bytes == " + itos(bytes) + ")");
      line("tg_cp_async(" + dst_addr + ", (const void*)(" + src->cname + " + (" + global_linear(*src, c) + ") * " + itos(es) + "), " + itos(bytes) + ", " +
           itos(bytes) + ");");
      close(" else {");
      ++indent_;
      for (int64_t i = 0; i < vec; ++i) {
        std::vector<std::string> ci = c, di = e.idx;
        ci.back() = "(" + c.back() + " + " + itos(i) + ")";
        di.back() = "(" + e.idx.back() + " + " + itos(i) + ")";
        Value v = read_element(*src, ci, pad);
        write_element(*dst, di, v);
      }
      close();
    }
    close();
  }
  close();
  return Status::ok();
}

// --- the loop ----------------------------------------------------------------------------------

Result<Emitter::PipelineEmit> Emitter::plan_pipelined(const ir::Stmt& loop) {
  TG_ASSIGN_OR_RETURN(ir::PipelinePlan pipeline, ir::get_pipeline_plan(loop));
  PipelineEmit p;
  p.stages = pipeline.stages;
  const std::vector<ir::Stmt>& body = loop.body().stmts;
  p.is_prefetch.assign(body.size(), false);
  p.engine.assign(body.size(), Engine::Sync);
  p.map.assign(body.size(), -1);
  for (int64_t i : pipeline.prefetch) {
    if (i < 0 || size_t(i) >= body.size() || body[size_t(i)].op != ir::OpKind::Copy)
      return unsupported(loop, "plan.prefetch names a statement that is not a copy");
    const ir::Stmt& c = body[size_t(i)];
    const Buffer* dst = buffer(c.copy_dst().buffer);
    if (!dst || dst->scope != ir::Scope::Shared) return unsupported(c, "a prefetched copy into something other than a shared buffer");
    if (p.stages > 1 && dst->layout.stages != p.stages)
      return unsupported(c, "shared buffer '" + dst->name + "' has " + itos(dst->layout.stages) + " stages, its pipeline " + itos(p.stages));
    p.is_prefetch[size_t(i)] = true;
    int64_t bytes = 0;
    if (p.stages > 1) {
      TG_ASSIGN_OR_RETURN(p.engine[size_t(i)], engine_of(c, &p.map[size_t(i)], &bytes));
    }
    if (p.engine[size_t(i)] == Engine::Bulk) {
      if (!mbarrier_of.count(&loop)) return error(ErrorCode::Internal, "cuda codegen: a bulk pipeline without mbarriers", loop.loc);
      p.tx_bytes += bytes;
      p.any_bulk = true;
    }
    p.any_async = p.any_async || p.engine[size_t(i)] == Engine::Async;
    p.any_sync = p.any_sync || p.engine[size_t(i)] == Engine::Sync;
    if (std::find(p.staged.begin(), p.staged.end(), dst) == p.staged.end()) p.staged.push_back(dst);
  }
  // Which gemm stays in flight the lowering decided (plan.inflight, ir/lower/PlanMmaOverlap.cpp)
  // and read_lowered checked against the target; of this backend's instructions only wgmma
  // runs in groups.
  if (pipeline.inflight >= 0) {
    p.inflight = &body[size_t(pipeline.inflight)];
    auto g = ir::get_gemm_plan(*p.inflight);
    if (!g.is_ok() || g->kind != InstructionKind::Wgmma)
      return error(ErrorCode::Internal, "cuda codegen: plan.inflight names a gemm that does not use wgmma",
                   p.inflight->loc);
  }
  p.bar0 = mbarrier_of.count(&loop) ? itos(mbarrier_of.at(&loop).offset) : "0";
  p.phase = mbarrier_of.count(&loop) ? "pph" + itos(mbarrier_of.at(&loop).index) : "";
  return p;
}

Status Emitter::emit_pipeline_issue(const ir::Stmt& loop, const PipelineEmit& p, const std::string& iter, const std::string& stage) {
  const std::vector<ir::Stmt>& body = loop.body().stmts;
  open("");
  line("const int ist = " + stage + ";");
  for (const Buffer* b : p.staged) line("const int st_" + b->name + " = ist;");
  std::string v = fresh("v_" + loop.vars[0] + "_");
  line("const long long " + v + " = " + iter + ";");
  push_scope();
  bind_var(loop.vars[0], v);
  std::string bar = "(smem_u32 + " + p.bar0 + "u + 8u * (unsigned)ist)";
  Status st;
  if (p.any_bulk) {
    open("if (t == 0)");
    line("tg_mbar_expect_tx(" + bar + ", " + itos(p.tx_bytes) + "u);");
    for (size_t i = 0; i < body.size() && st.is_ok(); ++i)
      if (p.is_prefetch[i] && p.engine[i] == Engine::Bulk) st = emit_prefetch_copy(body[i], Engine::Bulk, p.map[i], bar);
    close();
  }
  for (size_t i = 0; i < body.size() && st.is_ok(); ++i)
    if (p.is_prefetch[i] && p.engine[i] != Engine::Bulk) st = emit_prefetch_copy(body[i], p.engine[i], p.map[i], bar);
  pop_scope();
  TG_RETURN_IF_ERROR(st);
  close();
  return Status::ok();
}

Status Emitter::emit_pipeline_compute(const ir::Stmt& loop, const PipelineEmit& p) {
  const std::vector<ir::Stmt>& body = loop.body().stmts;
  for (size_t i = 0; i < body.size(); ++i) {
    if (p.is_prefetch[i]) continue;
    wgmma_pipelined = &body[i] == p.inflight;
    Status st = stmt(body[i]);
    wgmma_pipelined = false;
    TG_RETURN_IF_ERROR(st);
  }
  return Status::ok();
}

Status Emitter::emit_pipelined(const ir::Stmt& loop) {
  TG_ASSIGN_OR_RETURN(PipelineEmit p, plan_pipelined(loop));
  const int64_t S = p.stages;
  const std::vector<ir::Stmt>& body = loop.body().stmts;
  TG_ASSIGN_OR_RETURN(std::string lo, index_expr(loop.lo()));
  TG_ASSIGN_OR_RETURN(std::string hi, index_expr(loop.hi()));
  open("");
  line("// pipelined loop: " + itos(S) + " stages, prefetch by " + std::string(p.any_bulk ? "bulk tensor copies" : "") +
       (p.any_bulk && p.any_async ? " and " : "") + (p.any_async ? "cp.async" : "") + (!p.any_bulk && !p.any_async ? "plain copies" : ""));
  std::string plo = fresh("plo"), phi = fresh("phi");
  line("const long long " + plo + " = " + lo + ", " + phi + " = " + hi + ";");

  std::string k = fresh("v_" + loop.vars[0] + "_");
  if (S <= 1) {
    // No room for a second stage: copy, synchronise, compute.
    open("for (long long " + k + " = " + plo + "; " + k + " < " + phi + "; ++" + k + ")");
    push_scope();
    bind_var(loop.vars[0], k);
    emit_barrier();
    for (size_t i = 0; i < body.size(); ++i)
      if (p.is_prefetch[i]) TG_RETURN_IF_ERROR(stmt(body[i]));
    emit_barrier();
    Status st = emit_pipeline_compute(loop, p);
    pop_scope();
    TG_RETURN_IF_ERROR(st);
    close();
    close();
    return Status::ok();
  }
  // Prologue: iterations 0 .. S-2.
  open("for (int ps = 0; ps < " + itos(S - 1) + "; ++ps)");
  open("if (" + plo + " + ps < " + phi + ")");
  TG_RETURN_IF_ERROR(emit_pipeline_issue(loop, p, plo + " + ps", "ps"));
  close();
  if (p.any_async) line("tg_cp_async_commit();");
  close();
  open("for (long long " + k + " = " + plo + "; " + k + " < " + phi + "; ++" + k + ")");
  push_scope();
  bind_var(loop.vars[0], k);
  line("const long long it = " + k + " - " + plo + ";");
  line("const int stg = (int)(it % " + itos(S) + ");");
  for (const Buffer* b : p.staged) line("st_" + b->name + " = stg;");
  if (p.any_async) line("tg_cp_async_wait<" + itos(S - 2) + ">();");
  if (p.any_bulk) {
    line("tg_mbar_wait(smem_u32 + " + p.bar0 + "u + 8u * (unsigned)stg, (" + p.phase + " >> stg) & 1u);");
    line(p.phase + " ^= 1u << stg;");
  }
  std::string next_it = "(" + k + " + " + itos(S - 1) + ")";
  std::string next_stage = "(int)((it + " + itos(S - 1) + ") % " + itos(S) + ")";
  Status st;
  if (!p.inflight) {
    emit_barrier();
    open("if (" + next_it + " < " + phi + ")");
    st = emit_pipeline_issue(loop, p, next_it, next_stage);
    close();
    if (p.any_async) line("tg_cp_async_commit();");
    if (st.is_ok()) st = emit_pipeline_compute(loop, p);
  } else {
    if (p.any_async || p.any_sync) emit_barrier();
    st = emit_pipeline_compute(loop, p);
    emit_barrier();
    open("if (" + next_it + " < " + phi + ")");
    if (st.is_ok()) st = emit_pipeline_issue(loop, p, next_it, next_stage);
    close();
    if (p.any_async) line("tg_cp_async_commit();");
  }
  pop_scope();
  TG_RETURN_IF_ERROR(st);
  close();
  if (p.any_async) line("tg_cp_async_wait<0>();");
  if (p.inflight) {
    line("tg_wgmma_wait<0>();");
    emit_register_fence(*buffer(p.inflight->gemm_c().buffer));
  }
  close();
  return Status::ok();
}

}  // namespace tegula::cuda::gen
