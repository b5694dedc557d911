/// \file
/// The gemm microkernel: an MR x (NV * VW) block of C held in MR * NV vector registers,
/// updated over K with one broadcast of A per row and NV vector loads of the packed B panel
/// per step, fused multiply-adds throughout. Straight-line vector IR; LLVM allocates the
/// registers (MR * NV accumulators + NV panel vectors + 1 broadcast must fit: 14 x 2 with
/// AVX-512's 32 registers, 6 x 2 with AVX2's 16).
#include "llvm/IR/Intrinsics.h"

#include <algorithm>
#include <cstdint>
#include "plugins/cpu/codegen/Emitter.h"

namespace tegula::cpu {

void Emitter::microkernel(const MicroTile& t) {
  auto* vt = llvm::FixedVectorType::get(f32, unsigned(t.vw));
  llvm::Align elem(4);
  // The lanes of vector v that hold columns of C (the last panel may be partial).
  auto lanes = [&](int v) { return std::clamp<int64_t>(t.n_valid - int64_t(v) * t.vw, 0, t.vw); };
  auto mask = [&](int v) {
    std::vector<llvm::Constant*> bits;
    for (int l = 0; l < t.vw; ++l) bits.push_back(b.getInt1(l < lanes(v)));
    return llvm::ConstantVector::get(bits);
  };
  auto c_ptr = [&](int r, int v) {
    return b.CreateConstInBoundsGEP1_64(f32, t.c, uint64_t(r * t.ldc + int64_t(v) * t.vw));
  };

  // Accumulators live in allocas that SROA turns into registers (phis of the K loop).
  llvm::BasicBlock& entry = function()->getEntryBlock();
  llvm::IRBuilder<> at(&entry, entry.begin());
  std::vector<llvm::Value*> acc(size_t(t.mr * t.nv));
  for (int r = 0; r < t.mr; ++r)
    for (int v = 0; v < t.nv; ++v) {
      llvm::Value* slot = at.CreateAlloca(vt);
      acc[size_t(r * t.nv + v)] = slot;
      llvm::Value* init = llvm::ConstantAggregateZero::get(vt);
      if (t.accumulate && lanes(v) == t.vw) {
        llvm::LoadInst* l = b.CreateAlignedLoad(vt, c_ptr(r, v), elem);
        annotate(l, t.c_alias);
        init = l;
      } else if (t.accumulate && lanes(v) > 0) {
        llvm::Instruction* l = b.CreateMaskedLoad(vt, c_ptr(r, v), elem, mask(v), llvm::ConstantAggregateZero::get(vt));
        annotate(l, t.c_alias);
        init = l;
      }
      b.CreateStore(init, slot);
    }

  Status st = loop(ci(0), ci(t.k), [&](llvm::Value* k) -> Status {
    std::vector<llvm::Value*> bv;
    llvm::Value* row = b.CreateInBoundsGEP(f32, t.b, b.CreateMul(k, ci(int64_t(t.nv) * t.vw)));
    for (int v = 0; v < t.nv; ++v) {
      llvm::LoadInst* l = b.CreateAlignedLoad(vt, b.CreateConstInBoundsGEP1_64(f32, row, uint64_t(v * t.vw)), elem);
      annotate(l, scratch_alias());
      bv.push_back(l);
    }
    llvm::Value* a_k = b.CreateInBoundsGEP(f32, t.a, b.CreateMul(k, ci(t.a_k_stride)));
    for (int r = 0; r < t.mr; ++r) {
      llvm::LoadInst* x = b.CreateAlignedLoad(f32, b.CreateConstInBoundsGEP1_64(f32, a_k, uint64_t(r * t.a_row_stride)), elem);
      annotate(x, t.a_alias);
      llvm::Value* splat = b.CreateVectorSplat(unsigned(t.vw), x);
      for (int v = 0; v < t.nv; ++v) {
        llvm::Value* slot = acc[size_t(r * t.nv + v)];
        llvm::Value* sum = b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {vt}, {splat, bv[size_t(v)], b.CreateLoad(vt, slot)});
        b.CreateStore(sum, slot);
      }
    }
    return Status::ok();
  }, "k");
  (void)st;  // the body cannot fail

  for (int r = 0; r < t.mr; ++r)
    for (int v = 0; v < t.nv; ++v) {
      if (lanes(v) == 0) continue;
      llvm::Value* value = b.CreateLoad(vt, acc[size_t(r * t.nv + v)]);
      llvm::Instruction* s = lanes(v) == t.vw ? static_cast<llvm::Instruction*>(b.CreateAlignedStore(value, c_ptr(r, v), elem))
                                              : b.CreateMaskedStore(value, c_ptr(r, v), elem, mask(v));
      annotate(s, t.c_alias);
    }
}

}  // namespace tegula::cpu
