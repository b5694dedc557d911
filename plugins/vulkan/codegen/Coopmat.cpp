// Opaque fragments as cooperative matrices (SPV_KHR_cooperative_matrix). The lowering marks
// an accumulator `layout.opaque=<instruction>` with its atom, groups and repeats: subgroup
// sg holds, for group g = sg mod (gm * gn) (gi = g mod gm, gj = g / gm), the rm x rn
// accumulator matrices of rows gi*rm*m + i*m and columns gj*rn*n + j*n.
//
//  - gemm: per k-step, A and B matrices are loaded from shared memory (OpCooperativeMatrixLoadKHR
//    on the padded row-major tile, column-major for transposed operands; in 16-byte words for
//    packed tiles) and multiplied into the accumulators with OpCooperativeMatrixMulAddKHR;
//  - fill: OpCompositeConstruct of the (rounded) value;
//  - copies and maps go through a per-subgroup staging tile in shared memory: the matrix is
//    stored there, the subgroup's invocations then read, convert (with the exact encoders of
//    Convert.h), mask and write each element like any other tile op, and for copies in and
//    maps the tile is loaded back. Only the first copy of a replicated group writes memory.
#include "ir/lower/Lowered.h"
#include "ir/lower/GemmPlan.h"

#include <cstdint>
#include <functional>
#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

T KernelGen::coop_component(DType d, bool signed_int) {
  switch (d) {
    case DType::F16: return T::F16;
    case DType::F32: return T::F32;
    case DType::F64: return T::F64;
    case DType::I8: return T::I8;
    case DType::U8: return T::U8;
    case DType::I32: return signed_int ? T::I32 : T::U32;
    default: return T::Void;
  }
}

static void need_coopmat_caps(Module& m, T comp) {
  m.capability(CapCooperativeMatrixKHR);
  m.extension("SPV_KHR_cooperative_matrix");
  if (comp == T::F16) m.capability(CapFloat16);
  if (comp == T::I8 || comp == T::U8) m.capability(CapInt8);
}

Status KernelGen::declare_opaque(Buf& b, const ir::Stmt& alloc) {
  auto fragment = ir::get_opaque_fragment(alloc);
  if (!fragment.is_ok()) return fail(alloc.loc, "opaque fragment '" + alloc.name + "': " + fragment.status().message());
  const std::string& inst = fragment->inst;
  std::vector<int64_t> atom = {fragment->m, fragment->n, fragment->k};
  std::vector<int64_t> groups = {fragment->gm, fragment->gn};
  std::vector<int64_t> repeat = {fragment->rm, fragment->rn};
  for (const WorkgroupCoopmat& w : t_.workgroup_coopmat)
    if (w.id == inst) return declare_workgroup_matrix(b, alloc, w, atom, groups, repeat);
  for (const CoopmatShape& c : t_.coopmat)
    if (c.id == inst && c.m == atom[0] && c.n == atom[1] && c.k == atom[2]) b.coop = &c;
  if (!b.coop) return fail(alloc.loc, "the target has no cooperative matrix '" + inst + "' of that shape");
  int64_t S = t_.subgroup_width;
  if (S < 2 || k_.threads % S) return fail(alloc.loc, "cooperative matrices need whole subgroups");
  b.opaque = true;
  b.gm = groups[0], b.gn = groups[1], b.rm = repeat[0], b.rn = repeat[1];
  if (b.gm * b.gn > k_.threads / S) return fail(alloc.loc, "more matrix groups than subgroups");
  if (b.shape.size() != 2 || b.shape[0] != b.gm * b.rm * b.coop->m || b.shape[1] != b.gn * b.rn * b.coop->n)
    return fail(alloc.loc, "opaque fragment '" + alloc.name + "' does not match its groups and repeats");
  b.comp = coop_component(b.coop->c, dtype_is_int(b.coop->a) ? b.coop->a == DType::I8 : true);
  if (b.comp == T::Void || Conversions::value_type(b.dtype) == T::Bool)
    return fail(alloc.loc, "no cooperative-matrix component type for " + std::string(dtype_name(b.coop->c)));
  need_coopmat_caps(m_, b.comp);
  b.mat_type = m_.type_coopmat(b.comp, uint32_t(b.coop->m), uint32_t(b.coop->n), CoopUseAccumulator);
  for (int64_t i = 0; i < b.rm * b.rn; ++i) b.mats.push_back(m_.local_variable(b.mat_type));
  // One staging tile per subgroup, shared by every opaque fragment (same component type).
  int64_t tile = int64_t(b.coop->m) * b.coop->n;
  if (staging_var_ && staging_comp_ != b.comp) return fail(alloc.loc, "opaque fragments of different component types");
  if (!staging_var_ || tile > staging_tile_) {
    if (staging_var_) return fail(alloc.loc, "opaque fragments of different matrix sizes");
    staging_comp_ = b.comp;
    staging_tile_ = tile;
    int64_t elems = tile * (k_.threads / S);
    staging_var_ = m_.global_variable(SCWorkgroup, m_.type_array(m_.type(b.comp), uint32_t(elems)));
    m_.name(staging_var_, "tg_coopmat_staging");
    iface_.shared_bytes += uint32_t(elems * bit_width(b.comp) / 8);
  }
  uses_subgroup_ = true;
  return Status::ok();
}

KernelGen::GroupPos KernelGen::group_pos(const Buf& b) {
  uint32_t S = uint32_t(t_.subgroup_width);
  Value sg = b_.udiv(tid_, b_.cu(S));
  Value g = b_.umod(sg, b_.cu(uint32_t(b.gm * b.gn)));
  Value gi = b_.bitcast(b_.umod(g, b_.cu(uint32_t(b.gm))), T::I32);
  Value gj = b_.bitcast(b_.udiv(g, b_.cu(uint32_t(b.gm))), T::I32);
  GroupPos p;
  p.row0 = b_.mul(gi, b_.ci(int32_t(b.rm * b.coop->m)));
  p.col0 = b_.mul(gj, b_.ci(int32_t(b.rn * b.coop->n)));
  p.primary = b_.lt(sg, b_.cu(uint32_t(b.gm * b.gn)));
  p.lane = b_.umod(tid_, b_.cu(S));
  return p;
}

uint32_t KernelGen::staging_ptr(const Buf& b, Value element) {
  (void)b;
  Value sg = b_.udiv(tid_, b_.cu(uint32_t(t_.subgroup_width)));
  Value index = b_.add(b_.mul(sg, b_.cu(uint32_t(staging_tile_))), element);
  return b_.chain(SCWorkgroup, m_.type(staging_comp_), staging_var_, {index.id});
}

Value KernelGen::coop_load(uint32_t type, uint32_t ptr, Value layout, Value stride) {
  std::vector<uint32_t> ops{ptr, layout.id, stride.id};
  for (uint32_t w : b_.shared_access()) ops.push_back(w);
  return b_.op_type(OpCooperativeMatrixLoadKHR, type, ops);
}

void KernelGen::coop_store(uint32_t ptr, Value mat, Value layout, Value stride) {
  std::vector<uint32_t> ops{ptr, mat.id, layout.id, stride.id};
  for (uint32_t w : b_.shared_access()) ops.push_back(w);
  m_.emit(OpCooperativeMatrixStoreKHR, ops);
}

/// Execution and workgroup-memory barrier among one subgroup's invocations.
static void subgroup_barrier(Builder& b) {
  b.m.emit(OpControlBarrier, {b.cu(ScopeSubgroup).id, b.cu(ScopeSubgroup).id, b.cu(b.barrier_semantics(SemWorkgroupMemory)).id});
}

Status KernelGen::opaque_fill(Buf& b, Value value) {
  Value v = b_.convert(cv_.round(b.dtype, value), b.comp);
  Value mat = b_.op_type(OpCompositeConstruct, b.mat_type, {v.id});
  for (uint32_t var : b.mats) b_.store(var, mat);
  return Status::ok();
}

Status KernelGen::gen_gemm_coopmat(const ir::Stmt& s, Buf* A, Buf* B, Buf* C) {
  if (C->workgroup) return workgroup_gemm(s, A, B, C);
  auto plan = ir::get_gemm_plan(s);
  if (!plan.is_ok()) return plan.status();
  if (!C->opaque) return fail(s.loc, "a cooperative-matrix gemm into a fragment that is not opaque");
  if (A->scope != ir::Scope::Shared || B->scope != ir::Scope::Shared) return fail(s.loc, "cooperative-matrix operands must be shared");
  const CoopmatShape& c = *C->coop;
  if (plan->m != c.m || plan->n != c.n || plan->k != c.k || plan->gm != C->gm || plan->gn != C->gn || plan->rm != C->rm || plan->rn != C->rn)
    return fail(s.loc, "the gemm's plan does not match its accumulator's matrices");
  for (const Buf* x : {A, B})
    if (x->layout.block || x->layout.swizzle_bits || x->shape.size() != 2)
      return fail(s.loc, "cooperative-matrix operand '" + x->name + "' is not a plain (row-padded) 2-D shared tile");
  bool ta = ir::stmt_attr_bool(s, "trans_a"), tb = ir::stmt_attr_bool(s, "trans_b");
  bool signed_int = c.a == DType::I8;
  T ca = coop_component(c.a, signed_int), cb = coop_component(c.b, signed_int);
  if (ca == T::Void || cb == T::Void) return fail(s.loc, std::string("no cooperative-matrix component type for ") + dtype_name(c.a));
  need_coopmat_caps(m_, ca);
  need_coopmat_caps(m_, cb);
  uint32_t a_type = m_.type_coopmat(ca, uint32_t(c.m), uint32_t(c.k), CoopUseA);
  uint32_t b_type = m_.type_coopmat(cb, uint32_t(c.k), uint32_t(c.n), CoopUseB);
  // Packed tiles (Packed.cpp) are read as 16-byte words: pointer and stride count words.
  auto stride_of = [&](const Buf* x) { return uint32_t(x->shape[1] + x->layout.pad) / (x->packed ? per_word(*x) : 1); };
  auto operand_ptr = [&](Buf* x, Value index) {
    return x->packed ? packed_ptr(*x, index) : b_.chain(SCWorkgroup, x->elem_type, x->var, {index.id});
  };
  Value a_stride = b_.cu(stride_of(A));
  Value b_stride = b_.cu(stride_of(B));
  Value row_major = b_.cu(CoopRowMajor), col_major = b_.cu(CoopColumnMajor);
  uint32_t operands = dtype_is_int(c.a) && signed_int ? (CoopASigned | CoopBSigned | CoopCSigned | CoopResultSigned) : CoopOperandsNone;
  GroupPos pos = group_pos(*C);
  if (!ir::stmt_attr_bool(s, "accumulate")) TG_RETURN_IF_ERROR(opaque_fill(*C, b_.cf(0.0f)));
  auto step = [&](Value kk) {
    std::vector<Value> am, bm;
    for (int64_t i = 0; i < C->rm; ++i) {
      Value row = b_.add(pos.row0, b_.ci(int32_t(i * c.m)));
      Value index = shared_index(*A, ta ? std::vector<Value>{kk, row} : std::vector<Value>{row, kk});
      uint32_t ptr = operand_ptr(A, index);
      am.push_back(coop_load(a_type, ptr, ta ? col_major : row_major, a_stride));
    }
    for (int64_t j = 0; j < C->rn; ++j) {
      Value col = b_.add(pos.col0, b_.ci(int32_t(j * c.n)));
      Value index = shared_index(*B, tb ? std::vector<Value>{col, kk} : std::vector<Value>{kk, col});
      uint32_t ptr = operand_ptr(B, index);
      bm.push_back(coop_load(b_type, ptr, tb ? col_major : row_major, b_stride));
    }
    for (int64_t j = 0; j < C->rn; ++j)
      for (int64_t i = 0; i < C->rm; ++i) {
        uint32_t var = C->mats[size_t(i + C->rm * j)];
        Value acc = b_.op_type(OpLoad, C->mat_type, {var});
        std::vector<uint32_t> ops{am[size_t(i)].id, bm[size_t(j)].id, acc.id};
        if (operands) ops.push_back(operands);
        b_.store(var, b_.op_type(OpCooperativeMatrixMulAddKHR, C->mat_type, ops));
      }
  };
  int64_t steps = plan->Kp / c.k;
  if (steps <= 4) {
    for (int64_t st = 0; st < steps; ++st) step(b_.ci(int32_t(st * c.k)));
  } else {
    b_.for_(b_.ci(0), b_.ci(int32_t(plan->Kp)), int32_t(c.k), [&](Value kk) { step(kk); });
  }
  return Status::ok();
}

Status KernelGen::opaque_copy(const ir::Stmt& s, Buf* src, Buf* dst, const std::vector<int64_t>& extent) {
  bool out = src->opaque;
  Buf& frag = out ? *src : *dst;
  Buf& mem = out ? *dst : *src;
  if (frag.workgroup) {
    if (!out) return fail(s.loc, "a copy into a workgroup matrix");
    return workgroup_store(s, frag, mem);
  }
  if (mem.scope != ir::Scope::Global && mem.scope != ir::Scope::Shared)
    return fail(s.loc, "copy between an opaque fragment and a " + std::string(ir::scope_name(mem.scope)) + " buffer");
  TG_ASSIGN_OR_RETURN(std::vector<Value> origin, tile_origin(out ? s.copy_dst() : s.copy_src()));
  double pad = ir::stmt_attr_float(s, "pad");
  const CoopmatShape& c = *frag.coop;
  uint32_t S = uint32_t(t_.subgroup_width);
  int64_t tile = int64_t(c.m) * c.n;
  GroupPos pos = group_pos(frag);
  Value stride = b_.cu(uint32_t(c.n)), row_major = b_.cu(CoopRowMajor);
  for (int64_t j = 0; j < frag.rn; ++j)
    for (int64_t i = 0; i < frag.rm; ++i) {
      uint32_t var = frag.mats[size_t(i + frag.rm * j)];
      Value r0 = b_.add(pos.row0, b_.ci(int32_t(i * c.m))), c0 = b_.add(pos.col0, b_.ci(int32_t(j * c.n)));
      auto each = [&](const std::function<void(Value element, const std::vector<Value>& coords)>& fn) {
        for (int64_t q = 0; q < (tile + S - 1) / S; ++q) {
          Value e = b_.add(pos.lane, b_.cu(uint32_t(q * S)));
          auto body = [&] {
            Value r = b_.add(r0, b_.bitcast(b_.udiv(e, b_.cu(uint32_t(c.n))), T::I32));
            Value col = b_.add(c0, b_.bitcast(b_.umod(e, b_.cu(uint32_t(c.n))), T::I32));
            fn(e, {r, col});
          };
          if ((q + 1) * S <= tile) body();
          else b_.if_(b_.lt(e, b_.cu(uint32_t(tile))), body);
        }
      };
      if (out) {
        subgroup_barrier(b_);
        Value mat = b_.op_type(OpLoad, frag.mat_type, {var});
        coop_store(staging_ptr(frag, b_.cu(0)), mat, row_major, stride);
        subgroup_barrier(b_);
        b_.if_(pos.primary, [&] {
          each([&](Value e, const std::vector<Value>& coords) {
            Value v = b_.load_shared(staging_ptr(frag, e), frag.comp);
            Value value = frag.comp == T::U32 ? b_.bitcast(v, T::I32) : (frag.comp == T::F16 ? b_.convert(v, T::F32) : v);
            b_.if_(coords_inside(coords, extent), [&] { write_memory(mem, add_origin(origin, coords), value); });
          });
        });
      } else {
        subgroup_barrier(b_);
        each([&](Value e, const std::vector<Value>& coords) {
          Value value = read_memory(mem, add_origin(origin, coords), pad);
          Value rounded = cv_.round(frag.dtype, value);
          Value v = frag.comp == T::U32 ? b_.bitcast(rounded, T::U32) : b_.convert(rounded, frag.comp);
          b_.store_shared(staging_ptr(frag, e), v);
        });
        subgroup_barrier(b_);
        b_.store(var, coop_load(frag.mat_type, staging_ptr(frag, b_.cu(0)), row_major, stride));
      }
    }
  return Status::ok();
}

Status KernelGen::opaque_map(const ir::Stmt& s, Buf& b) {
  if (b.workgroup) return workgroup_map(s, b);
  const CoopmatShape& c = *b.coop;
  uint32_t S = uint32_t(t_.subgroup_width);
  int64_t tile = int64_t(c.m) * c.n;
  GroupPos pos = group_pos(b);
  Value stride = b_.cu(uint32_t(c.n)), row_major = b_.cu(CoopRowMajor);
  Status st;
  for (int64_t j = 0; j < b.rn && st.is_ok(); ++j)
    for (int64_t i = 0; i < b.rm && st.is_ok(); ++i) {
      uint32_t var = b.mats[size_t(i + b.rm * j)];
      subgroup_barrier(b_);
      Value mat = b_.op_type(OpLoad, b.mat_type, {var});
      coop_store(staging_ptr(b, b_.cu(0)), mat, row_major, stride);
      subgroup_barrier(b_);
      for (int64_t q = 0; q < (tile + S - 1) / S && st.is_ok(); ++q) {
        Value e = b_.add(pos.lane, b_.cu(uint32_t(q * S)));
        auto body = [&] {
          uint32_t ptr = staging_ptr(b, e);
          Value v = b_.load_shared(ptr, b.comp);
          MapCtx ctx;
          ctx.coords = {b_.add(pos.row0, b_.ci(int32_t(i * c.m))), b_.add(pos.col0, b_.ci(int32_t(j * c.n)))};
          ctx.opaque_value[b.name] = b.comp == T::U32 ? b_.bitcast(v, T::I32) : (b.comp == T::F16 ? b_.convert(v, T::F32) : v);
          auto value = expr(s.value(), &ctx);
          if (!value.is_ok()) {
            st = value.status();
            return;
          }
          Value rounded = cv_.round(b.dtype, *value);
          b_.store_shared(ptr, b.comp == T::U32 ? b_.bitcast(rounded, T::U32) : b_.convert(rounded, b.comp));
        };
        if ((q + 1) * int64_t(S) <= tile) body();
        else b_.if_(b_.lt(e, b_.cu(uint32_t(tile))), body);
      }
      subgroup_barrier(b_);
      b_.store(var, coop_load(b.mat_type, staging_ptr(b, b_.cu(0)), row_major, stride));
    }
  return st;
}

}  // namespace tegula::vulkan
