// Workgroup-scope cooperative matrices (SPV_NV_cooperative_matrix2 with
// SPV_NV_tensor_addressing). The lowering gives such an accumulator one atom, the whole
// block tile, and forwards the copies that staged A and B (ir/lower/ForwardOperands.cpp):
//
//  - the accumulator is one OpTypeCooperativeMatrixKHR of Workgroup scope;
//  - a forwarded copy emits nothing; the gemm loads each K step of A and B straight from the
//    copy's source with OpCooperativeMatrixLoadTensorNV through a 2-D tensor layout (the
//    tensor's dimensions and row stride, sliced at the copy's origin), and for a transposed
//    operand a tensor view that swaps the coordinates. Tiles the range
//    analysis cannot prove inside the tensor use clamp mode Constant, which reads zeros
//    outside, as the copy's zero padding would; the driver stages the tiles through shared
//    memory itself;
//  - a copy to a tensor converts the matrix (f32 <-> f16) and stores it with
//    OpCooperativeMatrixStoreTensorNV, which discards elements outside the tensor;
//  - a map of + - * and negation over the matrix, f32 literals and scalars is matrix
//    arithmetic (component-wise OpFAdd, OpFSub, OpFMul, OpFNegate, scalars splatted), each
//    step NoContraction so it rounds in f32 exactly as the element-wise form.
//
// Tensor-addressed pointers must be 16-byte aligned: the lowering takes these matrices only
// in the variant compiled for tensors that start on 16-byte boundaries. Fills go through
// opaque_fill like any cooperative matrix; nothing else may touch the accumulator.
#include "ir/lower/GemmPlan.h"

#include <cstdint>
#include <functional>

#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

namespace {
constexpr uint32_t kClampUndefined = 0, kClampConstant = 1;
}  // namespace

Status KernelGen::declare_workgroup_matrix(Buf& b, const ir::Stmt& alloc, const WorkgroupCoopmat& w, const std::vector<int64_t>& atom,
                                           const std::vector<int64_t>& groups, const std::vector<int64_t>& repeat) {
  if (groups[0] != 1 || groups[1] != 1 || repeat[0] != 1 || repeat[1] != 1)
    return fail(alloc.loc, "a workgroup matrix '" + alloc.name + "' must be one atom over the whole block");
  if (w.threads != k_.threads)
    return fail(alloc.loc, "workgroup matrix '" + w.id + "' is for workgroups of " + std::to_string(w.threads) + " invocations, not " +
                               std::to_string(k_.threads));
  if (!w.m.contains(int(atom[0])) || !w.n.contains(int(atom[1])) || !w.k.contains(int(atom[2])))
    return fail(alloc.loc, "workgroup matrix '" + w.id + "' has no " + std::to_string(atom[0]) + "x" + std::to_string(atom[1]) + "x" +
                               std::to_string(atom[2]) + " size");
  if (b.shape.size() != 2 || b.shape[0] != atom[0] || b.shape[1] != atom[1])
    return fail(alloc.loc, "workgroup matrix '" + alloc.name + "' does not match its atom");
  wg_shapes_.push_back(CoopmatShape{w.id, int(atom[0]), int(atom[1]), int(atom[2]), w.a, w.b, w.c, true, w.threads});
  b.coop = &wg_shapes_.back();
  b.opaque = true;
  b.workgroup = true;
  b.comp = coop_component(w.c, true);
  if (b.comp != T::F32 && b.comp != T::F16) return fail(alloc.loc, "workgroup matrices accumulate in f16 or f32 only");
  if (Conversions::value_type(b.dtype) != T::F32) return fail(alloc.loc, "a workgroup matrix accumulator must be a float fragment");
  need_workgroup_matrices();
  b.mat_type = m_.type_coopmat(b.comp, uint32_t(atom[0]), uint32_t(atom[1]), CoopUseAccumulator, ScopeWorkgroup);
  b.mats.push_back(m_.local_variable(b.mat_type));
  return Status::ok();
}

void KernelGen::need_workgroup_matrices() {
  m_.capability(CapCooperativeMatrixKHR);
  m_.capability(CapFloat16);
  m_.capability(CapTensorAddressingNV);
  m_.capability(CapCooperativeMatrixTensorAddressingNV);
  m_.extension("SPV_KHR_cooperative_matrix");
  m_.extension("SPV_NV_cooperative_matrix2");
  m_.extension("SPV_NV_tensor_addressing");
  iface_.spirv_version = 0x00010600;  // SPV_NV_cooperative_matrix2 requires SPIR-V 1.6
}

Value KernelGen::tensor_layout(Buf& tensor, const std::vector<Value>& origin, int64_t rows, int64_t cols, bool clamp) {
  uint32_t type = m_.type_tensor_layout(2, clamp ? kClampConstant : kClampUndefined);
  Value d0 = b_.bitcast(tensor.dims[0], T::U32), d1 = b_.bitcast(tensor.dims[1], T::U32);
  Value l = b_.op_type(OpCreateTensorLayoutNV, type, {});
  l = b_.op_type(OpTensorLayoutSetDimensionNV, type, {l.id, d0.id, d1.id});
  l = b_.op_type(OpTensorLayoutSetStrideNV, type, {l.id, d1.id, b_.cu(1).id});
  Value r0 = origin.empty() ? b_.cu(0) : b_.bitcast(origin[0], T::U32);
  Value c0 = origin.empty() ? b_.cu(0) : b_.bitcast(origin[1], T::U32);
  return b_.op_type(OpTensorLayoutSliceNV, type, {l.id, r0.id, b_.cu(uint32_t(rows)).id, c0.id, b_.cu(uint32_t(cols)).id});
}

uint32_t KernelGen::tensor_base(Buf& tensor) {
  // The tensor's first element: 16-byte aligned in the variant these matrices need.
  return b_.chain(SCStorageBuffer, tensor.elem_type, tensor.var, {b_.cu(0).id, tensor.offset.id});
}

Status KernelGen::workgroup_gemm(const ir::Stmt& s, Buf* A, Buf* B, Buf* C) {
  auto plan = ir::get_gemm_plan(s);
  if (!plan.is_ok()) return plan.status();
  if (plan->a_from != OperandLocation::Global || plan->b_from != OperandLocation::Global)
    return fail(s.loc, "a workgroup matrix gemm must load A and B from their tensors");
  const CoopmatShape& c = *C->coop;
  if (plan->m != c.m || plan->n != c.n || plan->gm != 1 || plan->gn != 1 || plan->rm != 1 || plan->rn != 1 || plan->Kp % plan->k)
    return fail(s.loc, "the gemm's plan does not match its workgroup matrix");
  struct Source {
    Buf* tensor = nullptr;
    std::vector<Value> origin;  ///< I32 (row, column) of the tile in the tensor
    bool inside = false;
    bool transposed = false;  ///< the tensor holds the operand transposed (trans_a / trans_b)
  };
  auto source = [&](const Buf* tile, const char* which) -> Result<Source> {
    auto f = forwarded_.find(tile->name);
    if (f == forwarded_.end()) return fail(s.loc, std::string("workgroup matrix operand ") + which + " was not forwarded by a copy");
    const ir::Stmt& copy = *f->second;
    Source src;
    src.tensor = find_buf(copy.copy_src().buffer);
    if (!src.tensor || src.tensor->scope != ir::Scope::Global || src.tensor->dims.size() != 2)
      return fail(copy.loc, "a forwarded copy must read a 2-D tensor");
    TG_ASSIGN_OR_RETURN(src.origin, tile_origin(copy.copy_src()));
    if (src.origin.empty()) src.origin = {b_.ci(0), b_.ci(0)};
    src.inside = tile_within(copy.copy_src(), *src.tensor);
    src.transposed = ir::stmt_attr_bool(s, which[0] == 'A' ? "trans_a" : "trans_b");
    return src;
  };
  TG_ASSIGN_OR_RETURN(Source a, source(A, "A"));
  TG_ASSIGN_OR_RETURN(Source b, source(B, "B"));
  T comp = coop_component(c.a, true);
  uint32_t a_type = m_.type_coopmat(comp, uint32_t(c.m), uint32_t(plan->k), CoopUseA, ScopeWorkgroup);
  uint32_t b_type = m_.type_coopmat(comp, uint32_t(plan->k), uint32_t(c.n), CoopUseB, ScopeWorkgroup);
  Value a_zero = b_.op_type(OpCompositeConstruct, a_type, {b_.c(comp, 0.0).id});
  Value b_zero = b_.op_type(OpCompositeConstruct, b_type, {b_.c(comp, 0.0).id});
  uint32_t access = b_.shared_access().empty() ? 0u : b_.shared_access()[0];
  // A transposed operand is read through a tensor view that swaps the coordinates: the
  // slice covers the stored (cols x rows) region, and matrix element (r, c) reads its (c, r).
  Value transpose;
  if (a.transposed || b.transposed) {
    uint32_t view_type = m_.type_tensor_view_transposed();
    transpose = b_.op_type(OpCreateTensorViewNV, view_type, {});
  }
  // One K step of an operand: `rows x cols` of the matrix from the tensor at (r0, c0) of the
  // matrix's own orientation.
  auto load = [&](Source& src, uint32_t type, Value zero, Value r0, Value c0, int64_t rows, int64_t cols) {
    if (!src.transposed) {
      Value layout = tensor_layout(*src.tensor, {r0, c0}, rows, cols, !src.inside);
      return b_.op_type(OpCooperativeMatrixLoadTensorNV, type, {tensor_base(*src.tensor), zero.id, layout.id, access, 0u});
    }
    Value layout = tensor_layout(*src.tensor, {c0, r0}, cols, rows, !src.inside);
    return b_.op_type(OpCooperativeMatrixLoadTensorNV, type,
                      {tensor_base(*src.tensor), zero.id, layout.id, access, uint32_t(TensorAddressingView), transpose.id});
  };
  // The tile's origin in the matrix's orientation (row, column).
  auto at = [](const Source& src, int axis) { return src.origin[size_t(src.transposed ? 1 - axis : axis)]; };
  if (!ir::stmt_attr_bool(s, "accumulate")) TG_RETURN_IF_ERROR(opaque_fill(*C, b_.cf(0.0f)));
  auto step = [&](Value kk) {
    Value am = load(a, a_type, a_zero, at(a, 0), b_.add(at(a, 1), kk), c.m, plan->k);
    Value bm = load(b, b_type, b_zero, b_.add(at(b, 0), kk), at(b, 1), plan->k, c.n);
    Value acc = b_.op_type(OpLoad, C->mat_type, {C->mats[0]});
    b_.store(C->mats[0], b_.op_type(OpCooperativeMatrixMulAddKHR, C->mat_type, {am.id, bm.id, acc.id}));
  };
  int64_t steps = plan->Kp / plan->k;
  if (steps <= 4) {
    for (int64_t st = 0; st < steps; ++st) step(b_.ci(int32_t(st * plan->k)));
  } else {
    b_.for_(b_.ci(0), b_.ci(int32_t(plan->Kp)), int32_t(plan->k), [&](Value kk) { step(kk); });
  }
  return Status::ok();
}

Result<Value> KernelGen::workgroup_arithmetic(const ir::Expr& e, Buf& b) {
  if (e->type.kind != ir::Type::Kind::Float || e->type.dtype != DType::F32) return fail(e->loc, "a workgroup matrix map computes in f32 only");
  // A subtree without the matrix is a scalar, computed as everywhere else.
  std::function<bool(const ir::Expr&)> has_matrix = [&](const ir::Expr& x) {
    if (x->kind == ir::ExprKind::Tile) return true;
    for (const ir::Expr& a : x->args)
      if (has_matrix(a)) return true;
    return false;
  };
  if (!has_matrix(e)) return expr_as(e, T::F32);
  auto as_matrix = [&](Value v) { return v.ty == T::Void ? v : b_.op_type(OpCompositeConstruct, b.mat_type, {v.id}); };
  auto exact = [&](Value v) {
    m_.decorate(v.id, DecNoContraction);  // no fused multiply-add: each step rounds as written
    return v;
  };
  switch (e->kind) {
    case ir::ExprKind::Tile:
      if (e->name != b.name) return fail(e->loc, "a workgroup matrix map reads another tile");
      return b_.op_type(OpLoad, b.mat_type, {b.mats[0]});
    case ir::ExprKind::Unary: {
      if (e->unary != ir::UnaryOp::Neg) break;
      TG_ASSIGN_OR_RETURN(Value x, workgroup_arithmetic(e->args[0], b));
      return b_.op_type(OpFNegate, b.mat_type, {as_matrix(x).id});
    }
    case ir::ExprKind::Binary: {
      Op op = e->binary == ir::BinaryOp::Add ? OpFAdd : e->binary == ir::BinaryOp::Sub ? OpFSub
              : e->binary == ir::BinaryOp::Mul ? OpFMul : OpNop;
      if (op == OpNop) break;
      TG_ASSIGN_OR_RETURN(Value x, workgroup_arithmetic(e->args[0], b));
      TG_ASSIGN_OR_RETURN(Value y, workgroup_arithmetic(e->args[1], b));
      return exact(b_.op_type(op, b.mat_type, {as_matrix(x).id, as_matrix(y).id}));
    }
    // Leaves without the tile were taken above (has_matrix); selection allows nothing else.
    case ir::ExprKind::IntImm:
    case ir::ExprKind::FloatImm:
    case ir::ExprKind::Var:
    case ir::ExprKind::Load:
    case ir::ExprKind::Cast:
    case ir::ExprKind::Bitcast:
    case ir::ExprKind::Select:
    case ir::ExprKind::ElemIndex: break;
  }
  return fail(e->loc, "a workgroup matrix map takes + - * and negation only");
}

Status KernelGen::workgroup_map(const ir::Stmt& s, Buf& b) {
  if (!s.target().offsets.empty()) return fail(s.loc, "a map over part of a workgroup matrix");
  if (b.comp != T::F32) return fail(s.loc, "a map over a workgroup matrix of " + std::string(dtype_name(b.dtype)) + " (f32 only)");
  TG_ASSIGN_OR_RETURN(Value v, workgroup_arithmetic(s.value(), b));
  if (v.ty != T::Void) v = b_.op_type(OpCompositeConstruct, b.mat_type, {v.id});  // a map of scalars only
  b_.store(b.mats[0], v);
  return Status::ok();
}

Status KernelGen::workgroup_store(const ir::Stmt& s, Buf& frag, Buf& mem) {
  if (mem.scope != ir::Scope::Global || mem.dims.size() != 2 || (mem.dtype != DType::F16 && mem.dtype != DType::F32))
    return fail(s.loc, "a workgroup matrix can only be copied to a 2-D f16 or f32 tensor");
  TG_ASSIGN_OR_RETURN(std::vector<Value> origin, tile_origin(s.copy_dst()));
  const CoopmatShape& c = *frag.coop;
  T want = mem.dtype == DType::F16 ? T::F16 : T::F32;
  Value mat = b_.op_type(OpLoad, frag.mat_type, {frag.mats[0]});
  if (want != frag.comp) {
    uint32_t type = m_.type_coopmat(want, uint32_t(c.m), uint32_t(c.n), CoopUseAccumulator, ScopeWorkgroup);
    mat = b_.op_type(OpFConvert, type, {mat.id});
  }
  bool inside = tile_within(s.copy_dst(), mem);
  Value layout = tensor_layout(mem, origin, c.m, c.n, !inside);
  uint32_t access = b_.shared_access().empty() ? 0u : b_.shared_access()[0];
  m_.emit(OpCooperativeMatrixStoreTensorNV, {tensor_base(mem), mat.id, layout.id, access, 0u});
  return Status::ok();
}

}  // namespace tegula::vulkan
