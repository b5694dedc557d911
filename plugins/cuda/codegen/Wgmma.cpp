/// \file
/// wgmma (sm_90a): each warpgroup (4 consecutive warps) issues m64nNk atoms asynchronously,
/// B (and A, unless it comes from registers) through shared-memory descriptors built from the
/// SharedLayout (Descriptors.h). Sequence per gemm: register fences on the accumulators,
/// wgmma.fence, every atom of every k-step, wgmma.commit_group, then wgmma.wait_group 0 (or
/// 1 inside a pipelined loop that reads nothing else of the accumulator, where the group of
/// iteration i is still in flight while iteration i + 1 is prepared; the pipeline waits for
/// it before reusing its stage and after the loop). Ordinary shared-memory stores reach the
/// async proxy through fence.proxy.async before each barrier (Emitter::emit_barrier).
#include "plugins/cuda/codegen/Descriptors.h"

#include <cstdint>

namespace tegula::cuda::gen {

static std::string hex64(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llxull", (unsigned long long)v);
  return buf;
}

/// The catalogue mnemonic with N filled in: "wgmma...m64nNk16..." -> "...m64n128k16...".
static std::string with_n(const std::string& mnemonic, int64_t n) {
  std::string s = mnemonic;
  size_t p = s.find("nN");
  if (p != std::string::npos) s.replace(p, 2, "n" + itos(n));
  return s;
}

void Emitter::emit_register_fence(const Buffer& C) {
  const char* c = frag_rep(C.dtype) == Rep::F32 ? "+f" : frag_rep(C.dtype) == Rep::F64 ? "+d" : "+r";
  line("#pragma unroll");
  line("for (int i = 0; i < " + itos(C.slots) + "; ++i) asm volatile(\"\" : \"" + std::string(c) + "\"(" + C.cname + "[i]) :: \"memory\");");
}

Status Emitter::emit_gemm_wgmma(const ir::Stmt& s, const ir::GemmPlan& p, const MatrixInstruction& mi) {
  const Buffer* A = buffer(s.gemm_a().buffer);
  const Buffer* B = buffer(s.gemm_b().buffer);
  const Buffer* C = buffer(s.gemm_c().buffer);
  bool acc = ir::stmt_attr_bool(s, "accumulate");
  bool ta = ir::stmt_attr_bool(s, "trans_a"), tb = ir::stmt_attr_bool(s, "trans_b");
  if (p.group_threads != 128 || p.m != 64) return unsupported(s, "wgmma with an atom other than m64 over a warpgroup");
  if (p.b_from != OperandLocation::Shared) return unsupported(s, "wgmma takes B from shared memory only");
  if (B->scope != ir::Scope::Shared) return unsupported(s, "wgmma's B must be a shared tile");
  bool a_regs = p.a_from == OperandLocation::Registers;
  if (!a_regs && A->scope != ir::Scope::Shared) return unsupported(s, "wgmma's A must be a shared tile or registers");
  bool sixteen = A->dtype == DType::F16 || A->dtype == DType::BF16;
  bool a_mn = ta, b_mn = !tb;  // B stored [K, N] is N-major
  if (!sixteen && ((!a_regs && a_mn) || b_mn))
    return unsupported(s, std::string("wgmma on ") + dtype_name(A->dtype) + " takes K-major operands only (store B as [N, K] with trans_b)");
  TG_ASSIGN_OR_RETURN(OperandRegs oc, operand_regs(mi, p, 2, C->dtype));
  int64_t RC = oc.values;  // N / 2
  bool c_f16 = C->dtype == DType::F16, c_int = C->dtype == DType::I32;
  if (!(C->dtype == DType::F32 || c_f16 || c_int)) return unsupported(s, std::string("a wgmma accumulator of ") + dtype_name(C->dtype));

  // Descriptors, checked atom by atom against the shared layouts.
  SmemDescriptor da, db;
  if (!a_regs) {
    auto d = make_descriptor(*A, !a_mn);
    if (!d.is_ok()) return unsupported(s, d.status().message());
    da = *d;
  }
  {
    auto d = make_descriptor(*B, !b_mn);
    if (!d.is_ok()) return unsupported(s, d.status().message());
    db = *d;
  }
  int64_t ksteps = p.Kp / p.k;
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    if (!a_regs)
      for (int64_t g = 0; g < p.gm; ++g)
        for (int64_t i = 0; i < p.rm; ++i) {
          Status st = check_descriptor(da, *A, g * p.rm * p.m + i * p.m, ks * p.k, p.m, p.k);
          if (!st.is_ok()) return unsupported(s, st.message());
        }
    for (int64_t g = 0; g < p.gn; ++g)
      for (int64_t j = 0; j < p.rn; ++j) {
        Status st = check_descriptor(db, *B, g * p.rn * p.n + j * p.n, ks * p.k, p.n, p.k);
        if (!st.is_ok()) return unsupported(s, st.message());
      }
  }
  OperandRegs oa;
  if (a_regs) {
    TG_ASSIGN_OR_RETURN(oa, operand_regs(mi, p, 0, A->dtype));
  }

  std::string mnem = with_n(mi.mnemonic, p.n);
  open("");
  line("// gemm " + A->name + " x " + B->name + " -> " + C->name + ": " + mnem + ", " + itos(p.gm) + "x" + itos(p.gn) + " warpgroups of " +
       itos(p.rm) + "x" + itos(p.rn) + " atoms" + (a_regs ? ", A from registers" : ""));
  line("const int wgi = (t >> 7) % " + itos(p.gm * p.gn) + ";");
  line("const int gx_a = (wgi % " + itos(p.gm) + ") * " + itos(p.rm * p.m) + ", gx_b = (wgi / " + itos(p.gm) + ") * " + itos(p.rn * p.n) + ";");
  if (!a_regs) line("const unsigned a_base = smem_u32 + (unsigned)(" + stage_base(*A) + ");");
  line("const unsigned b_base = smem_u32 + (unsigned)(" + stage_base(*B) + ");");
  emit_register_fence(*C);
  line("tg_wgmma_fence();");
  const char* cc = c_f16 || c_int ? "+r" : "+f";
  int64_t c_regs = c_f16 ? RC / 2 : RC;
  std::string kind_tail;  // the immediates after scale-d
  if (A->dtype == DType::I8 || A->dtype == DType::U8) kind_tail = "";
  else if (sixteen) kind_tail = a_regs ? ", 1, 1, " + itos(b_mn) : ", 1, 1, " + itos(a_mn) + ", " + itos(b_mn);
  else kind_tail = ", 1, 1";
  if (c_f16) {
    for (int64_t j = 0; j < p.rn; ++j)
      for (int64_t i = 0; i < p.rm; ++i)
        for (int64_t r = 0; r < c_regs; ++r) {
          int64_t base = RC * (i + p.rm * j);
          line("unsigned c" + itos(i) + "_" + itos(j) + "_" + itos(r) + " = tg_pack_f16x2(" + C->cname + "[" + itos(base + 2 * r) + "], " +
               C->cname + "[" + itos(base + 2 * r + 1) + "]);");
        }
  }
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    open("");
    for (int64_t i = 0; i < p.rm; ++i) {
      if (a_regs) {
        TG_RETURN_IF_ERROR(emit_operand_regs(s, p, oa, 0, i, ks, "a" + itos(i), "(t & 127)", "gx_a"));
      } else {
        line("const tg_u64 da" + itos(i) + " = " + hex64(wgmma_descriptor_bits(da)) + " | (tg_u64)(((a_base + (unsigned)" +
             descriptor_start(da, "gx_a + " + itos(i * p.m), ks * p.k) + ") >> 4) & 0x3fffu);");
      }
    }
    for (int64_t j = 0; j < p.rn; ++j)
      line("const tg_u64 db" + itos(j) + " = " + hex64(wgmma_descriptor_bits(db)) + " | (tg_u64)(((b_base + (unsigned)" +
           descriptor_start(db, "gx_b + " + itos(j * p.n), ks * p.k) + ") >> 4) & 0x3fffu);");
    int scale_d = (acc || ks > 0) ? 1 : 0;
    for (int64_t j = 0; j < p.rn; ++j) {
      for (int64_t i = 0; i < p.rm; ++i) {
        int64_t base = RC * (i + p.rm * j);
        std::vector<std::string> cvars;
        if (c_f16) {
          for (int64_t r = 0; r < c_regs; ++r) cvars.push_back("c" + itos(i) + "_" + itos(j) + "_" + itos(r));
        } else {
          for (int64_t r = 0; r < c_regs; ++r) cvars.push_back(C->cname + "[" + itos(base + r) + "]");
        }
        std::vector<std::string> outs, ins;
        std::string dlist;
        int n = 0;
        for (const std::string& cv : cvars) {
          outs.push_back("\"" + std::string(cc) + "\"(" + cv + ")");
          dlist += (dlist.empty() ? "%" : ", %") + itos(n++);
        }
        std::string aop;
        if (a_regs) {
          std::string alist;
          for (int64_t q = 0; q < oa.regs; ++q) {
            ins.push_back("\"r\"(a" + itos(i) + "[" + itos(q) + "])");
            alist += (alist.empty() ? "%" : ", %") + itos(n++);
          }
          aop = "{" + alist + "}";
        } else {
          ins.push_back("\"l\"(da" + itos(i) + ")");
          aop = "%" + itos(n++);
        }
        ins.push_back("\"l\"(db" + itos(j) + ")");
        std::string bop = "%" + itos(n++);
        ins.push_back("\"r\"(" + itos(scale_d) + ")");
        std::string sop = "%" + itos(n++);
        line("asm volatile(\"{ .reg .pred p; setp.ne.b32 p, " + sop + ", 0; " + mnem + " {" + dlist + "}, " + aop + ", " + bop + ", p" +
             kind_tail + "; }\" : " + join(outs, ", ") + " : " + join(ins, ", ") + " : \"memory\");");
      }
    }
    close();
  }
  line("tg_wgmma_commit();");
  if (wgmma_pipelined && !c_f16) {
    line("tg_wgmma_wait<1>();");
  } else {
    line("tg_wgmma_wait<0>();");
    emit_register_fence(*C);
  }
  if (c_f16) {
    for (int64_t j = 0; j < p.rn; ++j)
      for (int64_t i = 0; i < p.rm; ++i)
        for (int64_t r = 0; r < c_regs; ++r) {
          int64_t base = RC * (i + p.rm * j);
          std::string cv = "c" + itos(i) + "_" + itos(j) + "_" + itos(r);
          line("asm volatile(\"\" : \"+r\"(" + cv + ") :: \"memory\");");
          line(C->cname + "[" + itos(base + 2 * r) + "] = tg_dec_f16((unsigned short)(" + cv + " & 0xffffu));");
          line(C->cname + "[" + itos(base + 2 * r + 1) + "] = tg_dec_f16((unsigned short)(" + cv + " >> 16));");
        }
  }
  close();
  return Status::ok();
}

}  // namespace tegula::cuda::gen
