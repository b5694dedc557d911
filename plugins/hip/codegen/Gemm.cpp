/// \file
/// gemm on the FMA fallback: each thread computes the accumulator elements its fragment
/// layout gives it (accumulator_distribution's rm x rn blocks), over K in order, from A and B
/// in shared memory, in f32 (f64 for an f64 accumulator), and rounds once into C. A gemm the
/// lowering gave an MFMA instruction goes to Mfma.cpp; any other instruction kind is refused
/// (computing it another way would not be what lowering chose: the accumulator layout is the
/// instruction's).
#include "ir/lower/GemmPlan.h"
#include "plugins/hip/codegen/Emitter.h"

namespace tegula::hip {

using llvm::Value;

Status Emitter::emit_gemm(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(ir::GemmPlan plan, ir::get_gemm_plan(s));
  Buffer* a = find_buffer(s.gemm_a().buffer);
  Buffer* bb = find_buffer(s.gemm_b().buffer);
  Buffer* c = find_buffer(s.gemm_c().buffer);
  if (!a || !bb || !c) return error(ErrorCode::Internal, "hip: gemm operand unknown", s.loc);
  if (!s.gemm_a().offsets.empty() || !s.gemm_b().offsets.empty() || !s.gemm_c().offsets.empty())
    return not_implemented(&s, "gemm operands with offsets");
  if (plan.kind == InstructionKind::Mfma) return emit_mfma(s, plan, a, bb, c);
  if (!plan.is_fma())
    return not_implemented(&s, "the matrix instruction " + plan.inst + " that lowering chose for this gemm");
  if (a->scope != ir::Scope::Shared || bb->scope != ir::Scope::Shared || c->scope != ir::Scope::Fragment)
    return not_implemented(&s, "an FMA gemm whose operands are not shared tiles into a fragment accumulator");
  if (!s.gemm_a().offsets.empty() || !s.gemm_b().offsets.empty() || !s.gemm_c().offsets.empty())
    return not_implemented(&s, "gemm operands with offsets");
  bool ta = ir::stmt_attr_bool(s, "trans_a"), tb = ir::stmt_attr_bool(s, "trans_b");
  bool accumulate = ir::stmt_attr_bool(s, "accumulate");
  int64_t K = ta ? a->shape[0] : a->shape[1];
  VK k = c->dtype == DType::F64 ? VK::F64 : VK::F32;
  llvm::Type* kt = k == VK::F64 ? f64 : f32;
  // The accumulator's own distribution gives each slot's (row, column) for this thread.
  ir::CopyPlan own;
  own.kind = ir::ThreadPlanKind::Fragment;
  own.layout = c->name;
  TG_ASSIGN_OR_RETURN(std::vector<Element> elems, elements(s, own, c->shape));
  Value* acc = entry_alloca(llvm::ArrayType::get(kt, uint64_t(c->slots)), c->name + "_acc");
  for (const Element& e : elems) {
    Value* init = llvm::ConstantFP::get(kt, 0.0);
    if (accumulate) {
      TG_ASSIGN_OR_RETURN(Val old, load_at(*c, slot_address(*c, e.slot)));
      init = convert(old, k).v;
    }
    b.CreateStore(init, b.CreateConstInBoundsGEP1_64(kt, acc, uint64_t(e.slot)));
  }
  TG_RETURN_IF_ERROR(loop(ci(0), ci(K), [&](Value* kk) -> Status {
    for (const Element& e : elems) {
      // Padding slots compute on clamped rows and columns; nothing stores them.
      Value* row = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, e.coords[0], ci(c->shape[0] - 1));
      Value* col = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, e.coords[1], ci(c->shape[1] - 1));
      TG_ASSIGN_OR_RETURN(Value * pa, address(*a, ta ? std::vector<Value*>{kk, row} : std::vector<Value*>{row, kk}));
      TG_ASSIGN_OR_RETURN(Value * pb, address(*bb, tb ? std::vector<Value*>{col, kk} : std::vector<Value*>{kk, col}));
      TG_ASSIGN_OR_RETURN(Val x, load_at(*a, pa));
      TG_ASSIGN_OR_RETURN(Val y, load_at(*bb, pb));
      Value* slot = b.CreateConstInBoundsGEP1_64(kt, acc, uint64_t(e.slot));
      Value* sum =
          b.CreateIntrinsic(llvm::Intrinsic::fma, {kt}, {convert(x, k).v, convert(y, k).v, b.CreateLoad(kt, slot)});
      b.CreateStore(sum, slot);
    }
    return Status::ok();
  }));
  for (const Element& e : elems) {
    Value* v = b.CreateLoad(kt, b.CreateConstInBoundsGEP1_64(kt, acc, uint64_t(e.slot)));
    TG_RETURN_IF_ERROR(store_at(*c, slot_address(*c, e.slot), {v, k}));
  }
  return Status::ok();
}

}  // namespace tegula::hip
