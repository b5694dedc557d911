// Gemm. The fma path: each invocation owns an rm x rn block of the accumulator (rows
// ((t / gn) mod gm) * rm, columns (t mod gn) * rn, as accumulator_distribution says) and
// walks K, reading A and B from shared memory (through the SharedLayout formula) or from its
// own operand registers, with one fused multiply-add per product. Sums run in f32 (f64 for
// f64 operands or an f64 accumulator, i32 for integers) from the accumulator's old value,
// and round once to the accumulator's dtype at the end, as the reference rounds once per
// gemm.
#include "ir/lower/GemmPlan.h"

#include <cstdint>
#include "plugins/vulkan/codegen/KernelGen.h"

namespace tegula::vulkan {

using namespace spv;

Status KernelGen::gen_gemm(const ir::Stmt& s) {
  auto plan_r = ir::get_gemm_plan(s);
  if (!plan_r.is_ok()) return fail(s.loc, "gemm without a plan (was the kernel lowered?): " + plan_r.status().message());
  const ir::GemmPlan& plan = *plan_r;
  Buf* A = find_buf(s.gemm_a().buffer);
  Buf* B = find_buf(s.gemm_b().buffer);
  Buf* C = find_buf(s.gemm_c().buffer);
  if (!A || !B || !C) return fail(s.loc, "unbound gemm operand");
  if (plan.kind == InstructionKind::Coopmat) return gen_gemm_coopmat(s, A, B, C);
  if (!plan.is_fma()) return fail(s.loc, "matrix instruction '" + plan.inst + "' (only the fma path and cooperative matrices are generated)");
  if (C->scope != ir::Scope::Fragment) return fail(s.loc, "gemm accumulator is not a fragment");
  bool ta = ir::stmt_attr_bool(s, "trans_a"), tb = ir::stmt_attr_bool(s, "trans_b");
  bool accumulate = ir::stmt_attr_bool(s, "accumulate");
  int64_t threads = k_.threads;

  TG_ASSIGN_OR_RETURN(ir::Distribution acc_dist, ir::accumulator_distribution(plan, nullptr, threads));
  std::vector<int64_t> cshape{plan.Mp, plan.Np};
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> c_slot, map_slots(acc_dist, cshape, C->dist, C->shape));
  // Register operands: the slot of each (k, i) of A and (k, j) of B.
  std::vector<int64_t> a_slot, b_slot;
  bool a_regs = A->scope == ir::Scope::Fragment, b_regs = B->scope == ir::Scope::Fragment;
  if (a_regs) {
    TG_ASSIGN_OR_RETURN(ir::Distribution d, ir::operand_distribution(plan, nullptr, threads, true, ta));
    std::vector<int64_t> shape = ta ? std::vector<int64_t>{plan.Kp, plan.Mp} : std::vector<int64_t>{plan.Mp, plan.Kp};
    TG_ASSIGN_OR_RETURN(a_slot, map_slots(d, shape, A->dist, A->shape));
  }
  if (b_regs) {
    TG_ASSIGN_OR_RETURN(ir::Distribution d, ir::operand_distribution(plan, nullptr, threads, false, tb));
    std::vector<int64_t> shape = tb ? std::vector<int64_t>{plan.Np, plan.Kp} : std::vector<int64_t>{plan.Kp, plan.Np};
    TG_ASSIGN_OR_RETURN(b_slot, map_slots(d, shape, B->dist, B->shape));
  }
  if ((a_regs || b_regs) && plan.Kp > 256) return fail(s.loc, "gemm with register operands and K > 256");

  bool f64 = A->dtype == DType::F64 || B->dtype == DType::F64 || C->dtype == DType::F64;
  T ty = f64 ? T::F64 : (dtype_is_int(A->dtype) ? T::I32 : T::F32);
  Exec e = bind(acc_dist, 2);
  Value row0 = e.tc[0], col0 = e.tc[1];
  int64_t rm = plan.rm, rn = plan.rn;
  // Accumulators: slot j + rn * i of acc_dist holds (row0 + i, col0 + j).
  std::vector<uint32_t> acc(size_t(rm * rn));
  for (int64_t i = 0; i < rm; ++i)
    for (int64_t j = 0; j < rn; ++j) {
      int64_t slot = c_slot[size_t(j + rn * i)];
      Value init = accumulate && slot >= 0 ? cast_value(read_slot(*C, slot), ty) : b_.c(ty, 0.0);
      acc[size_t(j + rn * i)] = b_.var(ty, init);
    }
  auto step = [&](Value k, int64_t kconst) {
    std::vector<Value> a(static_cast<size_t>(rm)), bv(static_cast<size_t>(rn));
    for (int64_t i = 0; i < rm; ++i) {
      Value x;
      if (a_regs) x = read_slot(*A, a_slot[size_t(kconst + plan.Kp * i)]);
      else {
        Value r = b_.add(row0, b_.ci(int32_t(i)));
        x = read_memory(*A, ta ? std::vector<Value>{k, r} : std::vector<Value>{r, k}, 0.0);
      }
      a[size_t(i)] = cast_value(x, ty);
    }
    for (int64_t j = 0; j < rn; ++j) {
      Value x;
      if (b_regs) x = read_slot(*B, b_slot[size_t(kconst + plan.Kp * j)]);
      else {
        Value c = b_.add(col0, b_.ci(int32_t(j)));
        x = read_memory(*B, tb ? std::vector<Value>{c, k} : std::vector<Value>{k, c}, 0.0);
      }
      bv[size_t(j)] = cast_value(x, ty);
    }
    for (int64_t i = 0; i < rm; ++i)
      for (int64_t j = 0; j < rn; ++j) {
        uint32_t v = acc[size_t(j + rn * i)];
        b_.store(v, b_.fma(a[size_t(i)], bv[size_t(j)], b_.load(v, ty)));
      }
  };
  if (a_regs || b_regs) {
    for (int64_t k = 0; k < plan.Kp; ++k) step(b_.ci(int32_t(k)), k);
  } else {
    b_.for_(b_.ci(0), b_.ci(int32_t(plan.Kp)), 1, [&](Value k) { step(k, 0); });
  }
  for (int64_t i = 0; i < rm; ++i)
    for (int64_t j = 0; j < rn; ++j) {
      int64_t slot = c_slot[size_t(j + rn * i)];
      if (slot >= 0) write_slot(*C, slot, b_.load(acc[size_t(j + rn * i)], ty));
    }
  return Status::ok();
}

}  // namespace tegula::vulkan
