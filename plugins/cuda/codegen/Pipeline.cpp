/// \file
/// Software pipelines (ir/lower/README.md, "Pipelined loops"), kernel-wide resources
/// (mbarriers, tensor memory) and the copies a pipeline prefetches.
///
/// A pipelined loop with S stages issues the prefetched copies of iterations 0 .. S-2 before
/// it starts; iteration i waits for its own copies (cp.async.wait_group S-2, or the stage's
/// mbarrier for the bulk tensor copy engine, with a per-stage phase bit), and issues the
/// copies of iteration i + S - 1 into the stage iteration i - 1 used, after one block-wide
/// barrier that ends every thread's use of that stage. With a wgmma gemm that leaves its
/// group in flight (wait_group 1), the barrier and the issue move to the end of the
/// iteration, after the wait that retires iteration i - 1's group.
///
/// Engines: `bulk` copies go through cp.async.bulk.tensor (one thread, tensor maps built at
/// launch, passed as __grid_constant__ parameters) when the tile is 2-D, the shared layout is
/// one the copy engine writes (plain, or column blocks with the matching swizzle) and the pad
/// is 0 (or NaN); otherwise cp.async moves 4-, 8- or 16-byte vectors per thread with zero fill
/// past the edge; when neither fits, plain loads and stores do, still ahead of time.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

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
    auto pipeline = s.op == ir::OpKind::Pipelined ? ir::get_pipeline_plan(s) : Result<ir::PipelinePlan>(ir::PipelinePlan{});
    if (pipeline.is_ok() && pipeline->pipelined) {
      int64_t stages = pipeline->stages;
      bool bulk = false;
      for (int64_t i : pipeline->prefetch)
        if (i >= 0 && size_t(i) < s.body().stmts.size() && engine_of(s.body().stmts[size_t(i)], nullptr, nullptr) == Engine::Bulk) bulk = true;
      if (bulk && stages > 1) {
        mbarrier_of[&s] = int64_t(mbarrier_counts.size());
        for (int64_t i = 0; i < stages; ++i) mbarrier_counts.push_back(1);
      }
    }
    if (s.op == ir::OpKind::Gemm) {
      auto p = ir::get_gemm_plan(s);
      if (!p.is_ok()) return;
      if (p->kind == InstructionKind::Wgmma || p->kind == InstructionKind::Tcgen05) proxy_fence = true;
      if (p->kind == InstructionKind::Wgmma) uses_wgmma = true;
      if (p->kind == InstructionKind::Tcgen05 && sm_ == 100) {
        mbarrier_of[&s] = int64_t(mbarrier_counts.size());
        mbarrier_counts.push_back(p->gm * p->gn);
        uses_tmem = true;
        tmem_columns = std::max(tmem_columns, tcgen05_columns(*p));
      }
    }
  });
  mbarrier_count = int64_t(mbarrier_counts.size());
  if (uses_tmem) {
    if (tmem_columns > 512) return error(ErrorCode::Unsupported, "cuda: the kernel's tcgen05 accumulators need " + itos(tmem_columns) + " tensor-memory columns; there are 512");
    int64_t c = 32;
    while (c < tmem_columns) c *= 2;
    tmem_columns = c;
  }
  return st;
}

Status Emitter::emit_setup() {
  if (mbarrier_count) {
    open("if (t == 0)");
    for (int64_t i = 0; i < mbarrier_count; ++i)
      line("tg_mbar_init(smem_u32 + " + itos(mbarrier_base + 8 * i) + "u, " + itos(mbarrier_counts[size_t(i)]) + "u);");
    line("tg_mbar_init_fence();");
    close();
    for (const auto& [stmt, bar] : mbarrier_of) line("unsigned " + std::string(stmt->op == ir::OpKind::Gemm ? "ph" : "pph") + itos(bar) + " = 0;");
  }
  if (uses_tmem) {
    open("if (t < 32)");
    line("asm volatile(\"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\" :: \"r\"(smem_u32 + " + tmem_slot + "u), \"r\"(" +
         itos(tmem_columns) + "u) : \"memory\");");
    line("asm volatile(\"tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\" ::: \"memory\");");
    close();
  }
  if (mbarrier_count || uses_tmem) {
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

Emitter::Engine Emitter::engine_of(const ir::Stmt& s, int64_t* map_index, int64_t* bytes) {
  if (s.op != ir::OpKind::Copy) return Engine::Sync;
  const Buffer* src = buffer(s.copy_src().buffer);
  const Buffer* dst = buffer(s.copy_dst().buffer);
  if (!src || !dst || src->scope != ir::Scope::Global || dst->scope != ir::Scope::Shared || src->dtype != dst->dtype) return Engine::Sync;
  // An e5m2 store saturates infinities; the copy engines only move bytes.
  if (dst->dtype == DType::E5M2) return Engine::Sync;
  auto extent_r = extent_of(s);
  if (!extent_r.is_ok()) return Engine::Sync;
  std::vector<int64_t> extent = *extent_r;
  int64_t es = int64_t(dtype_size(dst->dtype));
  auto copy_plan = ir::get_copy_plan(s);
  if (!copy_plan.is_ok()) return Engine::Sync;
  int64_t vec = copy_plan->vector();
  double pad = ir::stmt_attr_float(s, "pad");
  bool dst_at_origin = true;
  for (const ir::Expr& o : s.copy_dst().offsets) dst_at_origin = dst_at_origin && ir::const_int(o) && *ir::const_int(o) == 0;
  // Bulk tensor copy.
  if (copy_plan->engine == ir::CopyEngine::Bulk && sm_ >= 90 && src->shape.size() == 2 && extent.size() == 2 && dst_at_origin && (pad == 0 || std::isnan(pad))) {
    const ir::SharedLayout& l = dst->layout;
    int64_t rows = dst->shape[0], cols = dst->shape[1], er = extent[0], ec = extent[1];
    int64_t S = l.block * es;
    bool layout_ok = l.pad == 0 &&
                     ((l.block == 0 && l.swizzle_bits == 0 && ec == cols && (ec * es) % 16 == 0 && ec <= 256) ||
                      (l.block && ((S == 16 && l.swizzle_bits == 0) ||
                                   (l.swizzle_base == 4 && l.swizzle_shift == 3 &&
                                    ((S == 32 && l.swizzle_bits == 1) || (S == 64 && l.swizzle_bits == 2) || (S == 128 && l.swizzle_bits == 3)))) &&
                       ec % l.block == 0));
    bool rows_ok = er <= 256 || er % 256 == 0;
    bool float_t = dtype_is_float(dst->dtype) && es >= 2;
    bool aligned = dst->offset % 128 == 0 && dst->stage_bytes % 128 == 0 && (l.block ? (rows * S) % 128 == 0 : true);
    int64_t box_rows = std::min<int64_t>(er, 256);
    if (!l.block) aligned = aligned && (box_rows * cols * es) % 128 == 0;
    else aligned = aligned && (box_rows * S) % 128 == 0;
    if (layout_ok && rows_ok && aligned && (pad == 0 || float_t) && rows >= er) {
      int64_t box_cols = l.block ? l.block : ec;
      int64_t boxes = ((er + box_rows - 1) / box_rows) * (l.block ? ec / l.block : 1);
      if (bytes) *bytes = boxes * box_rows * box_cols * es;
      if (map_index) {
        TensorMapSpec spec;
        spec.arg = uint32_t(src->arg);
        spec.elem_bytes = uint32_t(es);
        if (std::isnan(pad)) spec.dtype = uint32_t(es == 2 ? (dst->dtype == DType::BF16 ? 9 : kTensorMapFloat16) : es == 4 ? kTensorMapFloat32 : kTensorMapFloat64);
        else spec.dtype = uint32_t(es == 1 ? kTensorMapUint8 : es == 2 ? kTensorMapUint16 : es == 4 ? kTensorMapUint32 : kTensorMapUint64);
        spec.dims = src->dim_specs;
        spec.box = {uint32_t(box_rows), uint32_t(box_cols)};
        spec.swizzle = uint32_t(!l.block || S == 16 ? 0 : S == 32 ? 1 : S == 64 ? 2 : 3);
        spec.oob_fill = uint32_t(std::isnan(pad) ? kTensorMapOobFillNan : kTensorMapOobFillNone);
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
      }
      return Engine::Bulk;
    }
  }
  if (sm_ >= 80 && (vec * es == 4 || vec * es == 8 || vec * es == 16)) {
    auto plan = ir::get_distribution(s.attrs, "plan");
    std::vector<int64_t> off = {0, 0};
    off.resize(extent.size(), 0);
    if (plan.is_ok() && dst_at_origin && shared_vector_ok(*dst, *plan, extent, off, vec, threads())) return Engine::Async;
  }
  return Engine::Sync;
}

Status Emitter::emit_prefetch_copy(const ir::Stmt& s, Engine engine, int64_t map_index, const std::string& bar_addr) {
  if (engine == Engine::Sync) return emit_copy(s);
  const Buffer* src = buffer(s.copy_src().buffer);
  const Buffer* dst = buffer(s.copy_dst().buffer);
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, extent_of(s));
  int64_t es = int64_t(dtype_size(dst->dtype));
  std::vector<std::string> off;
  open("");
  for (size_t d = 0; d < extent.size(); ++d) {
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
    std::vector<std::string> c;
    for (size_t d = 0; d < e.idx.size(); ++d) c.push_back("(" + off[d] + " + " + e.idx[d] + ")");
    std::string rows_in;
    for (size_t d = 0; d + 1 < c.size(); ++d)
      rows_in += "(unsigned long long)" + c[d] + " < (unsigned long long)gd_" + src->name + "_" + itos(int64_t(d)) + " && ";
    std::string last = "gd_" + src->name + "_" + itos(int64_t(c.size()) - 1);
    line("const long long cl = " + c.back() + ";");
    line("const long long left = (" + rows_in + "cl >= 0) ? " + last + " - cl : 0;");
    line("const int src_bytes = left <= 0 ? 0 : (left >= " + itos(vec) + " ? " + itos(bytes) + " : (int)left * " + itos(es) + ");");
    std::string dst_addr = shared_addr(*dst, e.idx);
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

static bool mentions(const ir::Stmt& s, const std::string& name) {
  bool found = false;
  std::function<void(const ir::Expr&)> expr = [&](const ir::Expr& e) {
    if ((e->kind == ir::ExprKind::Tile || e->kind == ir::ExprKind::Load) && e->name == name) found = true;
    for (const ir::Expr& a : e->args) expr(a);
  };
  std::function<void(const ir::Stmt&)> st = [&](const ir::Stmt& x) {
    for (const ir::TileRef& t : x.tiles) found = found || t.buffer == name;
    for (const ir::Expr& e : x.exprs) expr(e);
    for (const ir::Block& b : x.blocks)
      for (const ir::Stmt& y : b.stmts) st(y);
  };
  st(s);
  return found;
}

Status Emitter::emit_pipelined(const ir::Stmt& loop) {
  TG_ASSIGN_OR_RETURN(ir::PipelinePlan pipeline, ir::get_pipeline_plan(loop));
  int64_t S = pipeline.stages;
  const std::vector<int64_t>& prefetch = pipeline.prefetch;
  const std::vector<ir::Stmt>& body = loop.body().stmts;
  std::vector<bool> is_prefetch(body.size(), false);
  std::vector<Engine> engine(body.size(), Engine::Sync);
  std::vector<int64_t> map(body.size(), -1);
  int64_t tx_bytes = 0;
  bool any_async = false, any_bulk = false, any_sync = false;
  std::vector<const Buffer*> staged;
  for (int64_t i : prefetch) {
    if (i < 0 || size_t(i) >= body.size() || body[size_t(i)].op != ir::OpKind::Copy)
      return unsupported(loop, "plan.prefetch names a statement that is not a copy");
    const ir::Stmt& c = body[size_t(i)];
    const Buffer* dst = buffer(c.copy_dst().buffer);
    if (!dst || dst->scope != ir::Scope::Shared) return unsupported(c, "a prefetched copy into something other than a shared buffer");
    if (S > 1 && dst->layout.stages != S)
      return unsupported(c, "shared buffer '" + dst->name + "' has " + itos(dst->layout.stages) + " stages, its pipeline " + itos(S));
    is_prefetch[size_t(i)] = true;
    int64_t bytes = 0;
    engine[size_t(i)] = S > 1 ? engine_of(c, &map[size_t(i)], &bytes) : Engine::Sync;
    if (engine[size_t(i)] == Engine::Bulk) {
      if (!mbarrier_of.count(&loop)) return error(ErrorCode::Internal, "cuda codegen: a bulk pipeline without mbarriers", loop.loc);
      tx_bytes += bytes;
      any_bulk = true;
    }
    any_async = any_async || engine[size_t(i)] == Engine::Async;
    any_sync = any_sync || engine[size_t(i)] == Engine::Sync;
    if (std::find(staged.begin(), staged.end(), dst) == staged.end()) staged.push_back(dst);
  }
  TG_ASSIGN_OR_RETURN(std::string lo, index_expr(loop.lo()));
  TG_ASSIGN_OR_RETURN(std::string hi, index_expr(loop.hi()));
  open("");
  line("// pipelined loop: " + itos(S) + " stages, prefetch by " + std::string(any_bulk ? "bulk tensor copies" : "") +
       (any_bulk && any_async ? " and " : "") + (any_async ? "cp.async" : "") + (!any_bulk && !any_async ? "plain copies" : ""));
  std::string plo = fresh("plo"), phi = fresh("phi");
  line("const long long " + plo + " = " + lo + ", " + phi + " = " + hi + ";");

  // One wgmma gemm whose accumulator nothing else in the body touches may stay in flight.
  const ir::Stmt* inflight = nullptr;
  int gemms = 0;
  for (const ir::Stmt& s : body) {
    if (s.op != ir::OpKind::Gemm) continue;
    ++gemms;
    auto p = ir::get_gemm_plan(s);
    if (p.is_ok() && p->kind == InstructionKind::Wgmma && sm_ == 90) inflight = &s;
  }
  if (inflight) {
    const Buffer* C = buffer(inflight->gemm_c().buffer);
    for (const ir::Stmt& s : body)
      if (&s != inflight && mentions(s, C->name)) inflight = nullptr;
    if (gemms != 1 || C->dtype == DType::F16 || S < 2) inflight = nullptr;
  }
  std::string bar0 = mbarrier_of.count(&loop) ? itos(mbarrier_base + 8 * mbarrier_of.at(&loop)) : "0";
  std::string phase = mbarrier_of.count(&loop) ? "pph" + itos(mbarrier_of.at(&loop)) : "";

  // Issue the prefetched copies of iteration `iter` into stage `stage`.
  auto issue = [&](const std::string& iter, const std::string& stage) -> Status {
    open("");
    line("const int ist = " + stage + ";");
    for (const Buffer* b : staged) line("const int st_" + b->name + " = ist;");
    std::string v = fresh("v_" + loop.vars[0] + "_");
    line("const long long " + v + " = " + iter + ";");
    push_scope();
    bind_var(loop.vars[0], v);
    std::string bar = "(smem_u32 + " + bar0 + "u + 8u * (unsigned)ist)";
    if (any_bulk) {
      open("if (t == 0)");
      line("tg_mbar_expect_tx(" + bar + ", " + itos(tx_bytes) + "u);");
      for (size_t i = 0; i < body.size(); ++i)
        if (is_prefetch[i] && engine[i] == Engine::Bulk) {
          Status st = emit_prefetch_copy(body[i], Engine::Bulk, map[i], bar);
          if (!st.is_ok()) {
            pop_scope();
            return st;
          }
        }
      close();
    }
    for (size_t i = 0; i < body.size(); ++i)
      if (is_prefetch[i] && engine[i] != Engine::Bulk) {
        Status st = emit_prefetch_copy(body[i], engine[i], map[i], bar);
        if (!st.is_ok()) {
          pop_scope();
          return st;
        }
      }
    pop_scope();
    close();
    return Status::ok();
  };
  auto body_stmts = [&]() -> Status {
    for (size_t i = 0; i < body.size(); ++i) {
      if (is_prefetch[i]) continue;
      bool pipelined = &body[i] == inflight;
      wgmma_pipelined = pipelined;
      Status st = stmt(body[i]);
      wgmma_pipelined = false;
      TG_RETURN_IF_ERROR(st);
    }
    return Status::ok();
  };

  std::string k = fresh("v_" + loop.vars[0] + "_");
  if (S <= 1) {
    // No room for a second stage: copy, synchronise, compute.
    open("for (long long " + k + " = " + plo + "; " + k + " < " + phi + "; ++" + k + ")");
    push_scope();
    bind_var(loop.vars[0], k);
    emit_barrier();
    for (size_t i = 0; i < body.size(); ++i)
      if (is_prefetch[i]) TG_RETURN_IF_ERROR(stmt(body[i]));
    emit_barrier();
    Status st = body_stmts();
    pop_scope();
    TG_RETURN_IF_ERROR(st);
    close();
    close();
    return Status::ok();
  }
  // Prologue: iterations 0 .. S-2.
  open("for (int ps = 0; ps < " + itos(S - 1) + "; ++ps)");
  open("if (" + plo + " + ps < " + phi + ")");
  TG_RETURN_IF_ERROR(issue(plo + " + ps", "ps"));
  close();
  if (any_async) line("tg_cp_async_commit();");
  close();
  open("for (long long " + k + " = " + plo + "; " + k + " < " + phi + "; ++" + k + ")");
  push_scope();
  bind_var(loop.vars[0], k);
  line("const long long it = " + k + " - " + plo + ";");
  line("const int stg = (int)(it % " + itos(S) + ");");
  for (const Buffer* b : staged) line("st_" + b->name + " = stg;");
  if (any_async) line("tg_cp_async_wait<" + itos(S - 2) + ">();");
  if (any_bulk) {
    line("tg_mbar_wait(smem_u32 + " + bar0 + "u + 8u * (unsigned)stg, (" + phase + " >> stg) & 1u);");
    line(phase + " ^= 1u << stg;");
  }
  std::string next_it = "(" + k + " + " + itos(S - 1) + ")";
  std::string next_stage = "(int)((it + " + itos(S - 1) + ") % " + itos(S) + ")";
  Status st;
  if (!inflight) {
    emit_barrier();
    open("if (" + next_it + " < " + phi + ")");
    st = issue(next_it, next_stage);
    close();
    if (any_async) line("tg_cp_async_commit();");
    if (st.is_ok()) st = body_stmts();
  } else {
    if (any_async || any_sync) emit_barrier();
    st = body_stmts();
    emit_barrier();
    open("if (" + next_it + " < " + phi + ")");
    if (st.is_ok()) st = issue(next_it, next_stage);
    close();
    if (any_async) line("tg_cp_async_commit();");
  }
  pop_scope();
  TG_RETURN_IF_ERROR(st);
  close();
  if (any_async) line("tg_cp_async_wait<0>();");
  if (inflight) {
    line("tg_wgmma_wait<0>();");
    emit_register_fence(*buffer(inflight->gemm_c().buffer));
  }
  close();
  return Status::ok();
}

}  // namespace tegula::cuda::gen
