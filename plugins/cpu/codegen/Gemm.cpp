/// \file
/// gemm. The fast path (float inputs of any float dtype, an f32 accumulator) is a
/// register-blocked microkernel over packed panels, BLIS style: B is packed into panels of
/// NR columns (k-major, zero-padded past N) in scratch memory; A is read in place when it
/// is f32 (row-major or transposed: the microkernel broadcasts one element per row and k)
/// and otherwise first converted to an f32 copy; then for each panel of B and each MR rows
/// of A an MR x NR block of C is loaded into vector registers, updated over all of K with
/// FMAs and stored back. Every tile size is a compile-time constant, so the edge blocks
/// (fewer rows, a partly filled panel) are separate, fully specialised code.
///
/// Everything else (f64, integers, narrow accumulators) takes the generic path: a row of C
/// accumulates in scratch memory in the compute type (i64 for integer inputs, so an int8
/// gemm is exact; f64 when any operand is f64; else f32) and is rounded once at the end,
/// as the reference rounds once per gemm.
#include "llvm/IR/Intrinsics.h"

#include <cstdint>
#include "plugins/cpu/codegen/Emitter.h"

namespace tegula::cpu {
namespace {

struct GemmShape {
  int64_t m, n, k;
  bool ta, tb, accumulate;
};

GemmShape shape_of(const ir::Stmt& s, const Buffer& a, const Buffer& c) {
  GemmShape g;
  g.ta = stmt_attr_bool(s, "trans_a");
  g.tb = stmt_attr_bool(s, "trans_b");
  g.accumulate = stmt_attr_bool(s, "accumulate");
  g.m = c.shape[0];
  g.n = c.shape[1];
  g.k = g.ta ? a.shape[0] : a.shape[1];
  return g;
}

}  // namespace

Status Emitter::emit_gemm(const ir::Stmt& s) {
  Buffer* a = find_buffer(s.gemm_a().buffer);
  Buffer* bb = find_buffer(s.gemm_b().buffer);
  Buffer* c = find_buffer(s.gemm_c().buffer);
  if (!a || !bb || !c) return error(ErrorCode::Internal, "unbound gemm operand", s.loc);
  bool floats = dtype_is_float(a->dtype) && dtype_is_float(bb->dtype);
  bool fast = floats && c->dtype == DType::F32 && a->dtype != DType::F64 && bb->dtype != DType::F64 && a != c && bb != c;
  uint64_t mark = scratch_mark();
  Status st = fast ? gemm_fast(s, *a, *bb, *c) : gemm_generic(s, *a, *bb, *c);
  scratch_release(mark);
  return st;
}

Status Emitter::gemm_generic(const ir::Stmt& s, Buffer& a, Buffer& bb, Buffer& c) {
  GemmShape g = shape_of(s, a, c);
  VK k = VK::Index;
  if (dtype_is_float(a.dtype)) {
    bool wide = a.dtype == DType::F64 || bb.dtype == DType::F64 || c.dtype == DType::F64;
    k = wide ? VK::F64 : VK::F32;
  }
  llvm::Type* kt = kind_type(k);
  Buffer* row = scratch_buffer("gemm_row", k == VK::F32 ? DType::F32 : DType::F64, {g.n}, ir::Scope::Shared);
  auto row_ptr = [&](llvm::Value* n) { return b.CreateInBoundsGEP(kt, row->base, n); };
  auto row_load = [&](llvm::Value* n) {
    llvm::LoadInst* l = b.CreateLoad(kt, row_ptr(n));
    annotate(l, scratch_alias());
    return l;
  };
  auto row_store = [&](llvm::Value* n, llvm::Value* v) { annotate(b.CreateStore(v, row_ptr(n)), scratch_alias()); };
  int64_t lda = a.shape[1], ldb = bb.shape[1], ldc = c.shape[1];
  return loop(ci(0), ci(g.m), [&](llvm::Value* m) -> Status {
    TG_RETURN_IF_ERROR(loop(ci(0), ci(g.n), [&](llvm::Value* n) -> Status {
      llvm::Value* init = llvm::Constant::getNullValue(kt);
      if (g.accumulate) init = convert(load(c, b.CreateAdd(b.CreateMul(m, ci(ldc)), n)), k).v;
      row_store(n, init);
      return Status::ok();
    }));
    TG_RETURN_IF_ERROR(loop(ci(0), ci(g.k), [&](llvm::Value* kk) -> Status {
      llvm::Value* ai = g.ta ? b.CreateAdd(b.CreateMul(kk, ci(lda)), m) : b.CreateAdd(b.CreateMul(m, ci(lda)), kk);
      llvm::Value* av = convert(load(a, ai), k).v;
      return loop(ci(0), ci(g.n), [&](llvm::Value* n) -> Status {
        llvm::Value* bi = g.tb ? b.CreateAdd(b.CreateMul(n, ci(ldb)), kk) : b.CreateAdd(b.CreateMul(kk, ci(ldb)), n);
        llvm::Value* bv = convert(load(bb, bi), k).v;
        llvm::Value* acc = row_load(n);
        llvm::Value* sum = k == VK::Index ? b.CreateAdd(acc, b.CreateMul(av, bv))
                                          : b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {kt}, {av, bv, acc});
        row_store(n, sum);
        return Status::ok();
      });
    }));
    return loop(ci(0), ci(g.n), [&](llvm::Value* n) -> Status {
      store(c, b.CreateAdd(b.CreateMul(m, ci(ldc)), n), Val{row_load(n), k});
      return Status::ok();
    });
  });
}

Status Emitter::gemm_fast(const ir::Stmt& s, Buffer& a, Buffer& bb, Buffer& c) {
  GemmShape g = shape_of(s, a, c);
  int vw = int(opts.f32_lanes);
  int nv = opts.gemm_nr_vectors ? int(opts.gemm_nr_vectors) : 2;
  int mr = opts.gemm_mr ? int(opts.gemm_mr) : (vw >= 16 ? 14 : 6);
  int64_t nr = int64_t(nv) * vw;
  int64_t panels = (g.n + nr - 1) / nr;
  int64_t lda = a.shape[1], ldb = bb.shape[1];

  // Pack B: panel p holds columns [p*nr, p*nr + nr) for every k, nr floats per k.
  Buffer* bp = scratch_buffer("gemm_b_panels", DType::F32, {panels, g.k, nr}, ir::Scope::Shared);
  auto b_index = [&](llvm::Value* kk, llvm::Value* n) {
    return g.tb ? b.CreateAdd(b.CreateMul(n, ci(ldb)), kk) : b.CreateAdd(b.CreateMul(kk, ci(ldb)), n);
  };
  Status packed = loop(ci(0), ci(panels), [&](llvm::Value* p) -> Status {
    llvm::Value* n0 = b.CreateMul(p, ci(nr));
    llvm::Value* valid = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, ci(nr), b.CreateSub(ci(g.n), n0));
    llvm::Value* panel = b.CreateMul(p, ci(g.k * nr));
    return loop(ci(0), ci(g.k), [&](llvm::Value* kk) -> Status {
      llvm::Value* dst = b.CreateAdd(panel, b.CreateMul(kk, ci(nr)));
      TG_RETURN_IF_ERROR(loop(ci(0), valid, [&](llvm::Value* j) -> Status {
        store(*bp, b.CreateAdd(dst, j), load(bb, b_index(kk, b.CreateAdd(n0, j))));
        return Status::ok();
      }));
      return loop(valid, ci(nr), [&](llvm::Value* j) -> Status {
        store_raw(*bp, b.CreateAdd(dst, j), llvm::ConstantFP::get(f32, 0.0));
        return Status::ok();
      });
    });
  });
  TG_RETURN_IF_ERROR(packed);

  // A in f32, in its own orientation: row-major [M, K], or [K, M] when transposed.
  llvm::Value* abase = a.base;
  int a_alias = a.alias;
  if (a.dtype != DType::F32) {
    Buffer* ap = scratch_buffer("gemm_a_f32", DType::F32, a.shape, ir::Scope::Shared);
    TG_RETURN_IF_ERROR(loop(ci(0), ci(a.elements()), [&](llvm::Value* i) -> Status {
      store(*ap, i, load(a, i));
      return Status::ok();
    }));
    abase = ap->base;
    a_alias = scratch_alias();
  }

  MicroTile t;
  t.vw = vw;
  t.nv = nv;
  t.k = g.k;
  t.accumulate = g.accumulate;
  t.ldc = c.shape[1];
  t.c_alias = c.alias;
  t.a_alias = a_alias;
  t.a_k_stride = g.ta ? lda : 1;
  t.a_row_stride = g.ta ? 1 : lda;
  int64_t full_rows = g.m / mr * mr;
  int64_t full_panels = g.n / nr;
  auto rows = [&](int64_t p_first, int64_t p_end, int64_t n_valid) -> Status {
    return loop(ci(p_first), ci(p_end), [&](llvm::Value* p) -> Status {
      llvm::Value* panel = b.CreateInBoundsGEP(f32, bp->base, b.CreateMul(p, ci(g.k * nr)));
      llvm::Value* c_col = b.CreateMul(p, ci(nr));
      auto block = [&](llvm::Value* row0, int rows_here) {
        MicroTile u = t;
        u.mr = rows_here;
        u.n_valid = n_valid;
        u.b = panel;
        u.a = b.CreateInBoundsGEP(f32, abase, b.CreateMul(row0, ci(t.a_row_stride)));
        u.c = b.CreateInBoundsGEP(f32, c.base, b.CreateAdd(b.CreateMul(row0, ci(t.ldc)), c_col));
        microkernel(u);
      };
      TG_RETURN_IF_ERROR(loop(ci(0), ci(g.m / mr), [&](llvm::Value* i) -> Status {
        block(b.CreateMul(i, ci(mr)), mr);
        return Status::ok();
      }));
      if (full_rows < g.m) block(ci(full_rows), int(g.m - full_rows));
      return Status::ok();
    });
  };
  TG_RETURN_IF_ERROR(rows(0, full_panels, nr));
  if (full_panels < panels) TG_RETURN_IF_ERROR(rows(full_panels, panels, g.n - full_panels * nr));
  return Status::ok();
}

}  // namespace tegula::cpu
