/// \file
/// gemm on an MFMA instruction (gfx942's catalogue: f16, bf16 and i8 inputs). Everything the
/// instruction needs comes from the lowered form and the description: the LLVM intrinsic is
/// the catalogue entry's mnemonic, which lane holds which element of A, B and the accumulator
/// is the entry's fragment layouts as the lowering tiled them (GemmPlan.h's
/// operand_distribution for operands loaded from LDS; the accumulator fragment's own
/// layout), and the register numbering is ir/lower/README.md's (accumulator register r of
/// atom (i, j) is slot r + R * (i + rm * j); operand register r of atom i at k-step s is slot
/// r + R_A * (i + rm * s)). Per k-step, each atom's A and B registers are gathered into the
/// intrinsic's vectors (i8 values packed four to a word), and the accumulator stays in its
/// vectors over all k-steps before it goes back into the fragment's slots.
#include "ir/lower/GemmPlan.h"
#include "plugins/hip/codegen/Emitter.h"

namespace tegula::hip {

using llvm::Value;

Status Emitter::emit_mfma(const ir::Stmt& s, const ir::GemmPlan& plan, Buffer* a, Buffer* bb, Buffer* c) {
  const MatrixInstruction* mi = target.find_instruction(plan.inst);
  if (!mi) return error(ErrorCode::Internal, "hip: the catalogue has no " + plan.inst, s.loc);
  llvm::Intrinsic::ID id = llvm::Function::lookupIntrinsicID(mi->mnemonic);
  if (id == llvm::Intrinsic::not_intrinsic)
    return not_implemented(&s, "the instruction " + plan.inst + " (LLVM 19 has no intrinsic " + mi->mnemonic + ")");
  llvm::Function* fn = llvm::Intrinsic::getDeclaration(&mod, id);
  llvm::FunctionType* fty = fn->getFunctionType();
  if (fty->getNumParams() != 6) return not_implemented(&s, "the intrinsic " + mi->mnemonic + "'s signature");
  llvm::Type* a_type = fty->getParamType(0);
  auto* acc_type = llvm::cast<llvm::FixedVectorType>(fty->getParamType(2));
  const int64_t R = int64_t(acc_type->getNumElements());
  bool integer = acc_type->getElementType()->isIntegerTy();
  bool ta = ir::stmt_attr_bool(s, "trans_a"), tb = ir::stmt_attr_bool(s, "trans_b");
  bool accumulate = ir::stmt_attr_bool(s, "accumulate");
  if (c->scope != ir::Scope::Fragment) return not_implemented(&s, "an MFMA accumulator outside a fragment");

  // Operand registers: per slot, where the element is (LDS coordinates) or which fragment slot.
  auto operand_slots = [&](Buffer* op, bool is_a, bool trans) -> Result<std::vector<Element>> {
    if (op->scope == ir::Scope::Fragment) return std::vector<Element>{};
    if (op->scope != ir::Scope::Shared) return not_implemented(&s, "an MFMA operand outside LDS and registers");
    TG_ASSIGN_OR_RETURN(ir::Distribution d, ir::operand_distribution(plan, mi, kernel.threads, is_a, trans));
    ir::CopyPlan free;
    free.kind = ir::ThreadPlanKind::Free;
    free.threads = d;
    TG_ASSIGN_OR_RETURN(std::vector<Element> elems, elements(s, free, op->shape));
    std::vector<Element> by_slot(size_t(d.value_count()));
    for (Element& e : elems) by_slot[size_t(e.slot)] = std::move(e);
    return by_slot;
  };
  TG_ASSIGN_OR_RETURN(std::vector<Element> a_slots, operand_slots(a, true, ta));
  TG_ASSIGN_OR_RETURN(std::vector<Element> b_slots, operand_slots(bb, false, tb));

  // One register's raw bits: an LDS load at the slot's coordinates, or the fragment's slot.
  auto element_bits = [&](Buffer* op, const std::vector<Element>& slots, int64_t slot) -> Result<Value*> {
    TG_ASSIGN_OR_RETURN(llvm::Type * t, storage_type(op->dtype));
    if (op->scope == ir::Scope::Fragment) return static_cast<Value*>(b.CreateLoad(t, slot_address(*op, slot)));
    if (size_t(slot) >= slots.size() || slots[size_t(slot)].coords.empty())
      return static_cast<Value*>(llvm::Constant::getNullValue(t));
    const Element& e = slots[size_t(slot)];
    TG_ASSIGN_OR_RETURN(Value * addr, address(*op, e.coords));
    Value* v = b.CreateLoad(t, addr);
    return e.valid ? b.CreateSelect(e.valid, v, llvm::Constant::getNullValue(t)) : v;
  };
  // The intrinsic's operand for atom `atom` at k-step `step`: R_op consecutive slots.
  auto gather = [&](Buffer* op, const std::vector<Element>& slots, int64_t atom, int64_t atoms,
                    int64_t step) -> Result<Value*> {
    int64_t count = 0;
    unsigned bits = 0;
    if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(a_type)) {
      count = int64_t(vt->getNumElements());
      bits = vt->getElementType()->getPrimitiveSizeInBits();
    } else {
      bits = 8;  // i8 values packed into one integer
      count = int64_t(a_type->getPrimitiveSizeInBits()) / 8;
    }
    llvm::Type* lane = b.getIntNTy(bits);
    Value* out = llvm::UndefValue::get(llvm::FixedVectorType::get(lane, unsigned(count)));
    for (int64_t r = 0; r < count; ++r) {
      TG_ASSIGN_OR_RETURN(Value * raw, element_bits(op, slots, r + count * (atom + atoms * step)));
      out = b.CreateInsertElement(out, b.CreateBitCast(raw, lane), uint64_t(r));
    }
    return b.CreateBitCast(out, a_type);
  };

  // Accumulators: atom (i, j)'s R registers are slots r + R * (i + rm * j).
  std::vector<Value*> acc(size_t(plan.rm * plan.rn));
  for (int64_t j = 0; j < plan.rn; ++j)
    for (int64_t i = 0; i < plan.rm; ++i) {
      Value* v = llvm::Constant::getNullValue(acc_type);
      if (accumulate) {
        for (int64_t r = 0; r < R; ++r) {
          TG_ASSIGN_OR_RETURN(Val old, load_at(*c, slot_address(*c, r + R * (i + plan.rm * j))));
          Value* x = integer ? b.CreateTrunc(convert(old, VK::Index).v, i32) : convert(old, VK::F32).v;
          v = b.CreateInsertElement(v, x, uint64_t(r));
        }
      }
      acc[size_t(i + plan.rm * j)] = v;
    }
  Value* zero = b.getInt32(0);
  for (int64_t step = 0; step < plan.Kp / plan.k; ++step) {
    std::vector<Value*> av(size_t(plan.rm)), bv(size_t(plan.rn));
    for (int64_t i = 0; i < plan.rm; ++i) {
      TG_ASSIGN_OR_RETURN(av[size_t(i)], gather(a, a_slots, i, plan.rm, step));
    }
    for (int64_t j = 0; j < plan.rn; ++j) {
      TG_ASSIGN_OR_RETURN(bv[size_t(j)], gather(bb, b_slots, j, plan.rn, step));
    }
    for (int64_t j = 0; j < plan.rn; ++j)
      for (int64_t i = 0; i < plan.rm; ++i) {
        Value*& v = acc[size_t(i + plan.rm * j)];
        v = b.CreateCall(fn, {av[size_t(i)], bv[size_t(j)], v, zero, zero, zero});
      }
  }
  for (int64_t j = 0; j < plan.rn; ++j)
    for (int64_t i = 0; i < plan.rm; ++i)
      for (int64_t r = 0; r < R; ++r) {
        Value* x = b.CreateExtractElement(acc[size_t(i + plan.rm * j)], uint64_t(r));
        Val v = integer ? Val{b.CreateSExt(x, i64), VK::Index} : Val{x, VK::F32};
        TG_RETURN_IF_ERROR(store_at(*c, slot_address(*c, r + R * (i + plan.rm * j)), v));
      }
  return Status::ok();
}

}  // namespace tegula::hip
