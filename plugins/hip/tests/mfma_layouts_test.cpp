// The register arithmetic of the MFMA gemm (codegen/Mfma.cpp) against each gfx942 catalogue
// entry's fragment layouts. Mfma.cpp builds the intrinsic's vector element r of atom (i, j)
// from accumulator slot r + R * (i + rm * j), and of A (B) atom i (j) at k-step s from slot
// r + R_A * (i + rm * s) of GemmPlan.h's operand distribution; the interpreter's lowered model
// runs the same numbering. For every entry, a gemm lowered onto it must therefore put, in every
// thread, exactly the element the entry's own layout gives lane t mod 64 and register r,
// moved to its group's and atom's origin; and LLVM's intrinsic must take vectors of as many
// registers as the layouts have values.
#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/lower/GemmPlan.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "plugins/hip/tests/HipTest.h"

namespace mfma_layouts_test {

using namespace tegula;

namespace {

const char* dtype_of(const MatrixInstruction& mi) { return dtype_name(mi.a_types[0]); }

std::string forced_gemm(const MatrixInstruction& mi) {
  // B's dtype is the entry's own (the fp8 x bf8 MFMA mixes them).
  std::string in = dtype_of(mi), in_b = dtype_name(mi.b_types[0]), acc = dtype_name(mi.c_types[0]);
  return "kernel k(A: " + in + "[M, K], B: " + in_b + "[K, N], C: " + acc +
         "[M, N]) grid(ceildiv(N, 64), ceildiv(M, 64)) threads(256) {\n"
         "  alloc As: shared " +
         in + "[64, 64]\n  alloc Bs: shared " + in_b + "[64, 64]\n  alloc acc: fragment " + acc +
         "[64, 64]\n  fill acc, 0\n  copy A[by * 64, 0], As\n  copy B[0, bx * 64], Bs\n"
         "  gemm As, Bs, acc, accumulate=true, inst=\"" +
         mi.id + "\"\n  copy acc, C[by * 64, bx * 64]\n}\n";
}

const ir::Stmt* find(const ir::Block& b, ir::OpKind op, const std::string& name = "") {
  for (const ir::Stmt& s : b.stmts) {
    if (s.op == op && (name.empty() || s.name == name)) return &s;
    for (const ir::Block& inner : s.blocks)
      if (const ir::Stmt* f = find(inner, op, name)) return f;
  }
  return nullptr;
}

std::vector<int64_t> plus(std::vector<int64_t> a, int64_t d0, int64_t d1) {
  a[0] += d0;
  a[1] += d1;
  return a;
}

}  // namespace

TEST_CASE("each MFMA entry's lowered registers hold what its layouts say, in every thread") {
  TargetDescription t = hip::testing::target("gfx942");
  llvm::LLVMContext ctx;
  llvm::Module mod("layouts", ctx);
  int checked = 0;
  for (const MatrixInstruction& mi : t.matrix_instructions) {
    if (mi.kind != InstructionKind::Mfma) continue;
    CAPTURE(mi.id);
    auto k = ir::parse_and_verify(forced_gemm(mi), "mfma.tile");
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    auto lowered = ir::lower(*k, t);
    REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
    const ir::Stmt* gemm = find(lowered->kernel.body, ir::OpKind::Gemm);
    const ir::Stmt* acc_alloc = find(lowered->kernel.body, ir::OpKind::Alloc, "acc");
    REQUIRE(gemm);
    REQUIRE(acc_alloc);
    auto plan = ir::get_gemm_plan(*gemm);
    REQUIRE_MESSAGE(plan.is_ok(), plan.status().str());
    REQUIRE(plan->inst == mi.id);
    auto acc = ir::get_distribution(acc_alloc->attrs, "layout");
    REQUIRE_MESSAGE(acc.is_ok(), acc.status().str());
    MmaShape shape{int(plan->m), int(plan->n), int(plan->k)};
    auto atom_c =
        ir::atom_distribution(mi.acc.find(OperandLocation::Registers)->layout, shape, plan->m, plan->n, false);
    auto atom_a = ir::atom_distribution(mi.a.find(OperandLocation::Registers)->layout, shape, plan->m, plan->k, false);
    auto atom_b = ir::atom_distribution(mi.b.find(OperandLocation::Registers)->layout, shape, plan->n, plan->k, false);
    REQUIRE(atom_c.is_ok());
    REQUIRE(atom_a.is_ok());
    REQUIRE(atom_b.is_ok());
    auto dist_a = ir::operand_distribution(*plan, &mi, 256, true, false);
    auto dist_b = ir::operand_distribution(*plan, &mi, 256, false, false);
    REQUIRE(dist_a.is_ok());
    REQUIRE(dist_b.is_ok());

    // LLVM's intrinsic takes as many registers as the layouts hold per lane.
    llvm::Intrinsic::ID id = llvm::Function::lookupIntrinsicID(mi.mnemonic);
    REQUIRE(id != llvm::Intrinsic::not_intrinsic);
    llvm::FunctionType* fty = llvm::Intrinsic::getDeclaration(&mod, id)->getFunctionType();
    int64_t R = atom_c->value_count(), RA = atom_a->value_count(), RB = atom_b->value_count();
    CHECK(int64_t(llvm::cast<llvm::FixedVectorType>(fty->getParamType(2))->getNumElements()) == R);
    auto regs = [](llvm::Type* type) {
      if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(type)) return int64_t(v->getNumElements());
      return int64_t(type->getPrimitiveSizeInBits() / 8);  // i8 values packed in an integer
    };
    CHECK(regs(fty->getParamType(0)) == RA);
    CHECK(regs(fty->getParamType(1)) == RB);

    int64_t ksteps = plan->Kp / plan->k;
    for (int64_t th = 0; th < 256; ++th) {
      int64_t lane = th % plan->group_threads;
      int64_t g = (th / plan->group_threads) % (plan->gm * plan->gn);
      int64_t gi = g % plan->gm, gj = g / plan->gm;
      for (int64_t j = 0; j < plan->rn; ++j)
        for (int64_t i = 0; i < plan->rm; ++i) {
          int64_t row0 = gi * plan->rm * plan->m + i * plan->m, col0 = gj * plan->rn * plan->n + j * plan->n;
          for (int64_t r = 0; r < R; ++r)
            REQUIRE(acc->coords(th, r + R * (i + plan->rm * j), 2) == plus(atom_c->coords(lane, r, 2), row0, col0));
          for (int64_t s = 0; s < ksteps; ++s) {
            for (int64_t r = 0; r < RA; ++r)  // A[M, K]: (row, k)
              REQUIRE(dist_a->coords(th, r + RA * (i + plan->rm * s), 2) ==
                      plus(atom_a->coords(lane, r, 2), row0, s * plan->k));
            for (int64_t r = 0; r < RB; ++r) {  // B[K, N]: the layout's (n, k) transposed
              std::vector<int64_t> nk = atom_b->coords(lane, r, 2);
              REQUIRE(dist_b->coords(th, r + RB * (j + plan->rn * s), 2) ==
                      std::vector<int64_t>{nk[1] + s * plan->k, nk[0] + col0});
            }
          }
        }
    }
    ++checked;
  }
  // f16, bf16 and i8 in two shapes each, and the four FNUZ fp8 pairings (fp8 and bf8) in two.
  CHECK(checked == 6 + 8);
}

}  // namespace mfma_layouts_test
